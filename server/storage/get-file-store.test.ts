/** getFileStore follows STORAGE: the database backend by default, S3 when configured; created once, replaceable. */
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/server/env";
import { getFileStore, setFileStore } from "./get-file-store";

const saved = { ...process.env };

afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
  setFileStore(undefined);
});

describe("getFileStore", () => {
  it("keeps files in the database unless configured otherwise, and creates the store once", async () => {
    delete process.env.STORAGE;
    resetEnvCache();
    const store = await getFileStore();
    expect(store.kind).toBe("database");
    expect(await getFileStore()).toBe(store);
  });

  it("uses the S3 backend when STORAGE=s3, without connecting anywhere until used", async () => {
    Object.assign(process.env, { STORAGE: "s3", S3_BUCKET: "files", S3_ENDPOINT: "http://127.0.0.1:9" });
    resetEnvCache();
    expect((await getFileStore()).kind).toBe("s3");
  });

  it("lets a test install a store of its choice", async () => {
    const mine = { kind: "s3" } as Awaited<ReturnType<typeof getFileStore>>;
    setFileStore(mine);
    expect(await getFileStore()).toBe(mine);
  });
});
