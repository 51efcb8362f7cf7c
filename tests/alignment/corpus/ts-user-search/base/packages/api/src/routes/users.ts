import { Router } from "express";

export const users = Router();

users.get("/users", async (_req, res) => {
  res.json([]);
});
