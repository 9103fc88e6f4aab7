/** /api/health reports the database as reachable when it is, and 503 when it is not (never a 500 page). */
import { describe, expect, it } from "vitest";
import { setDbHandle } from "@/server/db/client";
import { useTestDb } from "@/server/test/db";
import { GET } from "./route";

const t = useTestDb();

describe("GET /api/health", () => {
  it("is 200 with the database reachable", async () => {
    const res = await GET();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: { reachable: true } });
  });

  it("is 503 when the database cannot be queried", async () => {
    const broken = { ...t.handle, db: { execute: () => Promise.reject(new Error("down")) } } as unknown as typeof t.handle;
    setDbHandle(broken);
    try {
      const res = await GET();
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "error", database: { reachable: false } });
    } finally {
      setDbHandle(t.handle);
    }
  });
});
