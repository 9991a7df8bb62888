import { insufficientPoints, MSG } from "@enmusubi/shared";
import { z } from "zod";
import {
  type Access,
  type DeclaredErrorStatus,
  type ErrorStatus,
  errorStatuses,
  type ResponseHeader,
  type RestRoute,
} from "./adapter";

type JsonSchema = Record<string, unknown>;

/**
 * What a client sends is the input side of a schema: the start of a pipe (`.transform`, `.pipe`).
 * `z.preprocess(fn, schema)` (digit strings, photo objects) starts with an opaque function, so
 * there the schema after it describes the body.
 */
function documented(type: z.ZodType): z.ZodType {
  const def = type._zod.def as { type: string; in?: z.ZodType; out?: z.ZodType };
  if (def.type !== "pipe" || !def.in || !def.out) return type;
  return documented(def.in._zod.def.type === "transform" ? def.out : def.in);
}

/**
 * JSON Schema of a request (input side, as a client may send it) or of an answer (output side:
 * objects are closed with `additionalProperties: false`, so a field the document does not name
 * fails the contract tests instead of reaching clients unannounced).
 */
function schemaOf(type: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _drop, ...schema } = z.toJSONSchema(documented(type), {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as JsonSchema;
  return schema;
}

const STATUS_TEXT: Record<ErrorStatus, string> = {
  400: "入力内容の誤り (Bad Request)",
  401: "未認証 (Unauthorized)",
  402: "ポイント不足 (Payment Required)",
  403: "権限なし (Forbidden)",
  404: "対象が見つからない (Not Found)",
  409: "重複 (Conflict)",
  412: "読み込んだ後に変更された (Precondition Failed)",
  413: "送信データが大きすぎる (Payload Too Large)",
  415: "JSON 以外の本文 (Unsupported Media Type)",
  429: "試行回数の超過 (Too Many Requests)",
  500: "サーバー内部エラー (Internal Server Error)",
  503: "停止中・再起動中 (Service Unavailable)",
};

const ACCESS_TEXT: Record<Access, string> = {
  public: "No token needed (a token is ignored when invalid).",
  signedIn: "Any signed-in account (member or administrator): 401 without a valid token.",
  member: "Members only: 401 without a valid token, 403 for an administrator.",
  admin: "Administrators only: 401 without a valid token, 403 for a member.",
};

/** Components every error answer refers to. */
const ERROR_SCHEMAS = {
  Error: {
    type: "object",
    description: "Every error answer: a Japanese message from the catalogue, for the client to show.",
    properties: { message: { type: "string", minLength: 1 } },
    required: ["message"],
    additionalProperties: false,
  },
  InsufficientPoints: {
    type: "object",
    description: "402: the action costs more points than the balance holds.",
    properties: {
      success: { type: "boolean", const: false },
      required: { type: "integer", minimum: 0, description: "Points the action costs (cost × quantity)" },
      available: { type: "integer", minimum: 0, description: "The balance" },
      message: { type: "string", minLength: 1 },
    },
    required: ["success", "required", "available", "message"],
    additionalProperties: false,
  },
  Conflict: {
    type: "object",
    description:
      "409: the request conflicts with what is stored (a taken userID or e-mail address…). An administrator's balance edit whose `expectedPoints` / `expectedSendPoints` is no longer the balance (decision 0016) also answers the current `points` and `sendPoints`; nothing was written.",
    properties: {
      message: { type: "string", minLength: 1 },
      points: { type: "integer", minimum: 0, description: "The current balance (a refused balance edit only)" },
      sendPoints: {
        type: "integer",
        minimum: 0,
        description: "The current send points (a refused balance edit only)",
      },
    },
    required: ["message"],
    additionalProperties: false,
  },
  PreconditionFailed: {
    type: "object",
    description:
      "412: the `If-Match` version is not the current one (the resource changed since it was read); nothing was written. The current balances and the current `ETag` come with it.",
    properties: {
      message: { type: "string", minLength: 1 },
      points: { type: "integer", minimum: 0, description: "The current balance" },
      sendPoints: { type: "integer", minimum: 0, description: "The current send points" },
    },
    required: ["message", "points", "sendPoints"],
    additionalProperties: false,
  },
};

/** The schema component of an error status's body. */
const errorSchema = (status: ErrorStatus) =>
  status === 402 ? "InsufficientPoints" : status === 409 ? "Conflict" : status === 412 ? "PreconditionFailed" : "Error";

function errorBody(status: ErrorStatus, messages: string[], headers: Record<string, unknown> | undefined) {
  const body = (message: string) =>
    status === 402
      ? { success: false, required: 10, available: 5, message }
      : status === 412 || (status === 409 && message === MSG.balanceChanged)
        ? { message, points: 1052, sendPoints: 20 }
        : { message };
  const examples = Object.fromEntries(
    messages.map((message, i) => [`e${i + 1}`, { summary: message, value: body(message) }]),
  );
  return {
    description: STATUS_TEXT[status],
    ...(headers && Object.keys(headers).length ? { headers } : {}),
    content: {
      "application/json": {
        schema: { $ref: `#/components/schemas/${errorSchema(status)}` },
        examples,
      },
    },
  };
}

/** The 402 example message, with the figures of `errorBody`'s example. */
export const INSUFFICIENT_POINTS_EXAMPLE = insufficientPoints(10, 5);

export const operationId = (r: Pick<RestRoute, "method" | "path">): string =>
  `${r.method.toLowerCase()}${r.path.replace(/:(\w+)/g, "{$1}").replace(/[^a-zA-Z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`;

/** OpenAPI 3.1 document of the legacy REST layer, generated from the same zod schemas it validates with. */
export function buildOpenApiDocument(routes: RestRoute[], info: { version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const openPath = r.path.replace(/:(\w+)/g, "{$1}");
    const pathParams = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    const input = r.input ? schemaOf(r.input, "input") : undefined;
    const props = (input?.properties ?? {}) as Record<string, JsonSchema>;
    const requiredProps = new Set((input?.required as string[] | undefined) ?? []);
    const parameters: unknown[] = pathParams.map((name) => ({
      name,
      in: "path",
      required: true,
      schema: props[name] ?? { type: "string" },
    }));
    let requestBody: unknown;
    if (r.method === "GET" || r.method === "DELETE") {
      for (const [name, schema] of Object.entries(props)) {
        if (pathParams.includes(name)) continue;
        parameters.push({ name, in: "query", required: requiredProps.has(name), schema });
      }
    } else if (input) {
      const bodyProps = Object.fromEntries(Object.entries(props).filter(([k]) => !pathParams.includes(k)));
      requestBody = {
        required: true,
        content: {
          "application/json": {
            schema: {
              ...input,
              properties: bodyProps,
              required: [...requiredProps].filter((k) => !pathParams.includes(k)),
            },
          },
        },
      };
    }
    const documentHeaders = (list: Record<string, ResponseHeader> | undefined) =>
      Object.fromEntries(
        Object.entries(list ?? {}).map(([name, h]) => [
          name,
          { description: h.description, required: true, schema: schemaOf(h.schema, "output") },
        ]),
      );
    const headers = documentHeaders(r.headers);
    const errors = Object.fromEntries(
      [...errorStatuses(r)].map(([status, messages]) => [
        String(status),
        errorBody(status, messages, documentHeaders(r.errorHeaders?.[status as DeclaredErrorStatus])),
      ]),
    );
    paths[openPath] ??= {};
    (paths[openPath] as Record<string, unknown>)[r.method.toLowerCase()] = {
      summary: r.summary,
      description: [r.description, `**Access:** ${ACCESS_TEXT[r.access]}`].filter(Boolean).join("\n\n"),
      operationId: operationId(r),
      tags: [openPath.split("/")[2] ?? "api"],
      "x-access": r.access,
      ...(r.access === "public" ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [String(r.status ?? 200)]: {
          description: r.status === 201 ? "作成しました (Created)" : "成功 (OK)",
          ...(Object.keys(headers).length ? { headers } : {}),
          content: {
            [r.contentType ?? "application/json"]: { schema: schemaOf(r.response, "output"), example: r.example },
          },
        },
        ...errors,
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Enmusubi legacy REST API",
      version: info.version,
      description: [
        "The legacy `/api/*` calls, reproduced for third-party clients.",
        'Every error answers `{ "message": "…" }` with a Japanese message for the client to show (402 adds the figures `success`, `required`, `available`; 412, and 409 to a balance edit, the current `points` and `sendPoints`). Each operation lists every status it can answer, with an example of each.',
        "Access is checked before the request is read: a route for signed-in callers answers 401 to an anonymous caller (and one for a role 403 to the other role) whatever the body holds. Bodies are JSON objects (415 otherwise, 400 when unreadable, 413 above 15 MB). A request arriving while the server shuts down answers 503.",
        "Requests that are not well-formed HTTP (no Host header, headers or URL too large, an unknown method) are refused before any route with the same `{ message }` body (400, 405, 414, 431, 501); they are not listed per operation.",
      ].join("\n\n"),
    },
    servers: [{ url: info.serverUrl }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: ERROR_SCHEMAS,
    },
    paths,
  };
}
