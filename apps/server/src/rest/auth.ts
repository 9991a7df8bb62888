import { resolveSessionWithOwnView } from "@enmusubi/api";
import {
  birthday,
  forgotInput,
  loginInput,
  MSG,
  newPassword,
  profileUpdateInput,
  selfIntroduction,
  signupInput,
} from "@enmusubi/shared";
import { z } from "zod";
import { route, sessionCarrying } from "./adapter";
import { EXAMPLE_OWN_USER, EXAMPLE_TOKEN, SCREENING_REFUSALS } from "./examples";
import {
  documentedAs,
  newPhotoDoc,
  newPhotoField,
  ownLegacyUser,
  photoLinkOrImage,
  splitPhotoObject,
  successMessage,
  toOwnLegacyUser,
} from "./legacy-shapes";

/** GET /api/auth/me's session and answer (`profile.me`'s), read in one statement. */
const ownView = sessionCarrying(resolveSessionWithOwnView);

/** Legacy body of PUT /api/auth/profile: snake_case keys and objects or ids for references. */
const legacyProfileInput = z
  .preprocess(
    splitPhotoObject,
    // Documented (`.meta`) with the limits profileUpdateInput checks once the body is reshaped.
    z.object({
      name: z.string().optional().meta(documentedAs(profileUpdateInput.shape.name)),
      birthday: z
        .string()
        .nullable()
        .optional()
        .meta({
          anyOf: [documentedAs(birthday), { const: "" }, { type: "null" }],
          description: 'yyyy-mm-dd, 18 years old or more; "" or null clears it',
        }),
      address: z.string().nullable().optional().meta(documentedAs(profileUpdateInput.shape.address)),
      selfIntroduction: z
        .string()
        .optional()
        .meta({ ...documentedAs(selfIntroduction), description: '自己紹介, line breaks kept; "" clears it' }),
      occupation: z
        .union([z.string(), z.object({ _id: z.string() })])
        .nullable()
        .optional()
        .meta({ description: 'An occupation\'s _id, or the object holding it; "" or null clears it' }),
      annual_income: z
        .union([z.string(), z.object({ _id: z.string() })])
        .nullable()
        .optional()
        .meta({ description: 'An annual-income range\'s _id, or the object holding it; "" or null clears it' }),
      currentPassword: z.string().optional().meta(documentedAs(profileUpdateInput.shape.currentPassword)),
      newPassword: z
        .string()
        .optional()
        .meta({
          anyOf: [documentedAs(newPassword), { const: "" }],
          description: 'A new password (needs currentPassword); "" leaves it unchanged',
        }),
      /** A link to keep or "" / null to clear; a new image `{ photodatas }` arrives as newPhoto. */
      photoLink: z
        .string()
        .nullable()
        .optional()
        .meta(photoLinkOrImage("The account's current link as answered (its thumbnail) or as stored, to keep it")),
      newPhoto: newPhotoField.newPhoto.meta(newPhotoDoc),
    }),
  )
  .transform((b): z.input<typeof profileUpdateInput> => {
    const ref = (v: string | { _id: string } | null | undefined) =>
      v === undefined ? undefined : v === null || v === "" ? null : typeof v === "string" ? v : v._id;
    return {
      name: b.name,
      birthday: b.birthday === "" ? null : b.birthday,
      address: b.address,
      selfIntroduction: b.selfIntroduction,
      occupationId: ref(b.occupation),
      annualIncomeId: ref(b.annual_income),
      photoLink: b.photoLink,
      currentPassword: b.currentPassword || undefined,
      newPassword: b.newPassword || undefined,
      newPhoto: b.newPhoto,
    };
  })
  .pipe(profileUpdateInput);

export const authRoutes = [
  route({
    method: "POST",
    path: "/api/auth/login",
    summary: "Log in with userID and password",
    description:
      "Wrong credentials answer 401 with one message for both an unknown userID and a wrong password; repeated attempts answer 429. A suspended or withdrawn (退会) account answers 403, only once the password matched.",
    access: "public",
    input: loginInput,
    response: z.object({ token: z.string(), role: z.enum(["user", "admin"]) }),
    example: { token: EXAMPLE_TOKEN, role: "user" },
    errors: { 401: MSG.loginFailed, 403: [MSG.accountSuspended, MSG.accountWithdrawn], 429: MSG.tooManyRequests },
    handler: (caller, input) => caller.auth.login(input),
  }),
  route({
    method: "POST",
    path: "/api/auth/signup",
    summary: "Register with email and gender; the generated userID and password are mailed",
    description:
      "The legacy sign-up: no consent is recorded, so the member is asked to accept the terms at the first sign-in (`POST /api/auth/consent`). `POST /api/auth/join` registers with the consent.",
    access: "public",
    input: signupInput,
    response: successMessage,
    example: { success: true, message: MSG.signupDone },
    errors: { 429: MSG.tooManyRequests },
    status: 201,
    handler: (caller, input) => caller.auth.signup(input),
  }),
  route({
    method: "POST",
    path: "/api/auth/forgot",
    summary: "Reissue a password by mail (same answer whether or not the pair exists)",
    access: "public",
    input: forgotInput,
    response: successMessage,
    example: { success: true, message: MSG.forgotSent },
    errors: { 429: MSG.tooManyRequests },
    handler: (caller, input) => caller.auth.forgot(input),
  }),
  route({
    method: "GET",
    path: "/api/auth/me",
    summary: "The signed-in account",
    access: "signedIn",
    response: ownLegacyUser,
    example: EXAMPLE_OWN_USER,
    // `profile.me`'s answer, read with the session in one statement.
    resolveSession: ownView.resolve,
    handler: async (_caller, _input, request) => toOwnLegacyUser(ownView.foundWith(request).view),
  }),
  route({
    method: "PUT",
    path: "/api/auth/profile",
    summary: "Update the signed-in account's profile (a new password needs currentPassword)",
    description:
      "A member's name and 自己紹介 are screened first (decision 0042): a name matching any rule is refused; 自己紹介 is refused or masked (＊＊＊) as the rules say. Fields left out stay as they are; `null` or \"\" clears an optional one. `photoLink` may keep or clear the current link, or be `{ photodatas }` with a new image (checked, ≤ 2048 px, JPEG 0.8). A member's new photo and changed selfIntroduction wait for the operator's review before other members see them (`message` then says so; `user.profileReview` shows 「審査中」; decision 0044); clearing either applies at once. A new password ends every other session (the answer then carries a fresh `token`) and a pending e-mail change; a wrong currentPassword is counted with the account's failed logins (10 in 15 minutes, then 429).",
    access: "signedIn",
    input: legacyProfileInput,
    response: z.object({ message: z.string(), user: ownLegacyUser, token: z.string().optional() }),
    example: { message: MSG.profileUpdated, user: EXAMPLE_OWN_USER },
    errors: {
      400: [
        MSG.currentPasswordRequired,
        MSG.currentPasswordWrong,
        MSG.photoLinkInvalid,
        MSG.imageOnly,
        MSG.selfIntroductionTooLong,
        MSG.screeningNameRefused,
        ...SCREENING_REFUSALS,
      ],
      413: MSG.imageTooLarge,
      429: MSG.tooManyRequests,
    },
    handler: async (caller, input) => {
      // One procedure, one transaction: a new photo is kept only if the whole update applies.
      const { user, token, submitted } = await caller.profile.update(input);
      const message = submitted.photo || submitted.introduction ? MSG.profileUpdatedPendingReview : MSG.profileUpdated;
      return { message, user: toOwnLegacyUser(user), ...(token ? { token } : {}) };
    },
  }),
  route({
    method: "GET",
    path: "/api/auth/uniuqeGenerate",
    summary: "Admin: a fresh unused userID and password (path spelled as the legacy client does)",
    access: "admin",
    response: z.object({ userID: z.string(), password: z.string() }),
    example: { userID: "k3x9m2pq", password: "Vb7kQ2mX9p" },
    handler: (caller) => caller.auth.uniqueGenerate(),
  }),
];
