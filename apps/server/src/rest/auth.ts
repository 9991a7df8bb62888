import { forgotInput, loginInput, MSG, profileUpdateInput, signupInput } from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { legacyUser, newPhotoField, splitPhotoObject, successMessage, toLegacyUser } from "./legacy-shapes";

/** Legacy body of PUT /api/auth/profile: snake_case keys and objects or ids for references. */
const legacyProfileInput = z
  .preprocess(
    splitPhotoObject,
    z.object({
      name: z.string().optional(),
      birthday: z.string().nullable().optional(),
      address: z.string().nullable().optional(),
      occupation: z
        .union([z.string(), z.object({ _id: z.string() })])
        .nullable()
        .optional(),
      annual_income: z
        .union([z.string(), z.object({ _id: z.string() })])
        .nullable()
        .optional(),
      currentPassword: z.string().optional(),
      newPassword: z.string().optional(),
      /** A link to keep or "" / null to clear; a new image `{ photodatas }` arrives as newPhoto. */
      photoLink: z.string().nullable().optional(),
      ...newPhotoField,
    }),
  )
  .transform((b): { profile: z.input<typeof profileUpdateInput>; newPhoto?: string | undefined } => {
    const ref = (v: string | { _id: string } | null | undefined) =>
      v === undefined ? undefined : v === null || v === "" ? null : typeof v === "string" ? v : v._id;
    return {
      profile: {
        name: b.name,
        birthday: b.birthday === "" ? null : b.birthday,
        address: b.address,
        occupationId: ref(b.occupation),
        annualIncomeId: ref(b.annual_income),
        photoLink: b.photoLink,
        currentPassword: b.currentPassword || undefined,
        newPassword: b.newPassword || undefined,
      },
      newPhoto: b.newPhoto,
    };
  })
  .pipe(z.object({ profile: profileUpdateInput, ...newPhotoField }));

export const authRoutes = [
  route({
    method: "POST",
    path: "/api/auth/login",
    summary: "Log in with userID and password",
    auth: false,
    input: loginInput,
    response: z.object({ token: z.string(), role: z.enum(["user", "admin"]) }),
    handler: (caller, input) => caller.auth.login(input),
  }),
  route({
    method: "POST",
    path: "/api/auth/signup",
    summary: "Register with email and gender; the generated userID and password are mailed",
    auth: false,
    input: signupInput,
    response: successMessage,
    status: 201,
    handler: (caller, input) => caller.auth.signup(input),
  }),
  route({
    method: "POST",
    path: "/api/auth/forgot",
    summary: "Reissue a password by mail (same answer whether or not the pair exists)",
    auth: false,
    input: forgotInput,
    response: successMessage,
    handler: (caller, input) => caller.auth.forgot(input),
  }),
  route({
    method: "GET",
    path: "/api/auth/me",
    summary: "The signed-in account",
    auth: true,
    response: legacyUser,
    handler: async (caller) => toLegacyUser(await caller.auth.me()),
  }),
  route({
    method: "PUT",
    path: "/api/auth/profile",
    summary: "Update the signed-in account's profile (a new password needs currentPassword)",
    auth: true,
    input: legacyProfileInput,
    response: z.object({ message: z.string(), user: legacyUser, token: z.string().optional() }),
    handler: async (caller, input) => {
      if (input.newPhoto) await caller.photos.upload({ data: input.newPhoto });
      const { user, token } = await caller.auth.updateProfile(input.profile);
      return { message: MSG.profileUpdated, user: toLegacyUser(user), ...(token ? { token } : {}) };
    },
  }),
  route({
    method: "GET",
    path: "/api/auth/uniuqeGenerate",
    summary: "Admin: a fresh unused userID and password (path spelled as the legacy client does)",
    auth: true,
    response: z.object({ userID: z.string(), password: z.string() }),
    handler: (caller) => caller.auth.uniqueGenerate(),
  }),
];
