import "./zod-locale";

export * from "./constants";
export * from "./messages/index";
export * from "./schemas/auth";
export * from "./schemas/board";
export * from "./schemas/inquiries";
export * from "./schemas/members";
export * from "./schemas/messages";
export * from "./schemas/payments";
export * from "./schemas/photos";
export * from "./schemas/points";
export * from "./schemas/reference";
export * from "./schemas/safety";
export * from "./schemas/scheduled";
export * from "./schemas/text";
export * from "./schemas/users";
export * from "./schemas/values";
export * from "./schemas/verification";
