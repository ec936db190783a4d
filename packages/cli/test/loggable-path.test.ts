import { describe, expect, it } from "vitest";
import { loggablePath } from "../src/context.js";

describe("loggablePath", () => {
  it("prints the document's template, never a value written into the path or a query", () => {
    const logged = [
      "https://portal.vacd.biz/voice/api/v1/admin/token/aws80:0f3c-secret-token",
      "https://portal.vacd.biz/api/auth/login/admin?username=ada&password=hunter2&platformId=p",
      "https://engage.example/voice/api/v1/not-in-the-document/aws80:0f3c-secret-token?password=hunter2",
    ].map((url) => loggablePath(new URL(url)));
    expect(logged[0]).toBe("https://portal.vacd.biz/voice/api/v1/admin/token/{apiToken}");
    for (const line of logged) {
      expect(line).not.toMatch(/secret-token|hunter2|username=|ada/);
    }
  });
});
