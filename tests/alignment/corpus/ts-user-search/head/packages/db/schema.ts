export const users = { id: "bigint", name: "text", email: "text" };
