import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { type Document, OpenAPIBackend, type Operation } from "openapi-backend";

/**
 * Holds REST answers to the published OpenAPI document, the way a validating proxy (Stoplight
 * Prism) or a generated client would: the status must be one the operation documents, the content
 * type one that status documents, the body valid against that status's schema and every header it
 * documents present and valid. Validation is openapi-backend's (operation matching, response and
 * response-header validators) on Ajv's JSON Schema 2020-12 dialect, the dialect of OpenAPI 3.1;
 * nothing here re-states a shape.
 */

export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

export interface ContractChecker {
  /** The documented operation a request names, or undefined for paths outside the REST document. */
  operation(request: { method: string; url: string }): Operation | undefined;
  /**
   * What in this answer the document does not allow: [] when it conforms (an unknown /api path
   * answered 404 conforms), null outside the REST layer (health check, uploads, the SPA, the
   * document and its reference page).
   */
  problems(request: { method: string; url: string }, answer: Answer): string[] | null;
  /** Throws, naming every problem, when the answer does not conform. */
  assert(request: { method: string; url: string }, answer: Answer): void;
  /** Schema errors of a body for one documented status of an operation ([] when valid). */
  bodyProblems(operation: Operation, status: number, body: unknown): string[];
}

const mediaType = (value: unknown) =>
  String(value ?? "")
    .split(";")[0]
    ?.trim()
    .toLowerCase() ?? "";

function documentedResponse(operation: Operation, status: number) {
  const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
  return responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
}

type AjvError = { instancePath: string; message?: string; params?: unknown };
const describe = (errors: AjvError[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"} ${JSON.stringify(e.params)}`);

export async function createContractChecker(document: object): Promise<ContractChecker> {
  const api = new OpenAPIBackend({
    // A copy: the backend dereferences the document it is given in place.
    definition: structuredClone(document) as Document,
    // `quick` skips openapi-backend's own definition check, which knows OpenAPI 3.0 only; the
    // document is checked against the OpenAPI 3.1 schema in contract.test.ts instead.
    quick: true,
    strict: true,
    customizeAjv: (_ajv, options) => {
      const ajv = new Ajv2020({ ...options, allErrors: true, strict: false });
      addFormats(ajv);
      return ajv as never;
    },
  });
  await api.init();
  // openapi-backend lists the document's operations anew on every match (a seventh of a REST
  // request's cost in property-bad-input-rest.test.ts); the document does not change.
  const operations = api.router.getOperations();
  api.router.getOperations = () => operations;

  const operation: ContractChecker["operation"] = ({ method, url }) =>
    api.router.matchOperation({ method: method.toLowerCase(), path: url, headers: {} }) || undefined;

  const bodyProblems: ContractChecker["bodyProblems"] = (op, status, body) =>
    describe(api.validator.validateResponse(body, op, status).errors as AjvError[] | null);

  const problems: ContractChecker["problems"] = (request, answer) => {
    const op = operation(request);
    if (!op) {
      // Outside /api, HEAD and OPTIONS (answered by Fastify for every GET route) and the document
      // itself are not REST operations. Anything else under /api that a route answers must be in
      // the document: only the catch-all 404 may answer a path it does not list.
      const path = request.url.split("?")[0] ?? "";
      const method = request.method.toUpperCase();
      if (!/^\/api(\/|$)/.test(path) || method === "HEAD" || method === "OPTIONS") return null;
      if (path === "/api/openapi.json" || /^\/api\/docs(\/|$)/.test(path)) return null;
      if (answer.statusCode === 404) return [];
      return [`${method} ${path} is answered (${answer.statusCode}) but /api/openapi.json has no such operation`];
    }
    const documented = documentedResponse(op, answer.statusCode);
    if (!documented) {
      const listed = Object.keys(op.responses ?? {}).join(", ");
      return [`status ${answer.statusCode} is not documented (documented: ${listed})`];
    }
    const found: string[] = [];
    const type = mediaType(answer.headers["content-type"]);
    const types = Object.keys(documented.content ?? {});
    if (types.length === 0) {
      if (answer.body.length > 0) found.push(`a body is answered where the document has none (${type})`);
    } else if (!types.includes(type)) {
      found.push(`content type "${type}" is not documented (documented: ${types.join(", ")})`);
    } else if (type === "application/json") {
      let body: unknown;
      try {
        body = JSON.parse(answer.body);
      } catch {
        found.push("the body is not JSON");
      }
      if (body !== undefined) found.push(...bodyProblems(op, answer.statusCode, body));
    }
    const headers = api.validator.validateResponseHeaders(answer.headers, op, {
      statusCode: answer.statusCode,
      setMatchType: "superset" as never,
    });
    found.push(...describe(headers.errors as AjvError[] | null).map((p) => `header ${p}`));
    return found;
  };

  return {
    operation,
    problems,
    bodyProblems,
    assert(request, answer) {
      const found = problems(request, answer);
      if (found && found.length > 0) {
        throw new Error(
          `${request.method} ${request.url} → ${answer.statusCode} does not match /api/openapi.json:\n  - ${found.join(
            "\n  - ",
          )}\n  body: ${answer.body.slice(0, 500)}`,
        );
      }
    },
  };
}

/** The document the server publishes, as a third-party client downloads it. */
export async function publishedDocument(app: FastifyInstance): Promise<Record<string, unknown>> {
  const res = await app.inject({ method: "GET", url: "/api/openapi.json" });
  if (res.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${res.statusCode}`);
  return res.json();
}

/** `app.inject`, with the answer held to the document (throws when it drifts). */
export async function checkedInject(
  app: FastifyInstance,
  contract: ContractChecker,
  options: InjectOptions,
): Promise<LightMyRequestResponse> {
  const res = await app.inject(options);
  const url = typeof options.url === "string" ? options.url : String(options.path ?? options.url?.pathname ?? "/");
  contract.assert({ method: String(options.method ?? "GET"), url }, res);
  return res;
}
