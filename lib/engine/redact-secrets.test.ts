// What may be logged of a URL, a connection string or a header: everything but its secrets.
import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact-secrets.ts";

describe("redactSecrets", () => {
  it("hides the password of a database URL, wherever it stands in the text", () => {
    expect(redactSecrets("postgresql://almanac:s3cr%40t@db.example:5432/almanac")).toBe(
      "postgresql://almanac:***@db.example:5432/almanac",
    );
    expect(redactSecrets("cannot reach postgres://u:hunter2@10.0.0.1/db (ECONNREFUSED)")).toBe(
      "cannot reach postgres://u:***@10.0.0.1/db (ECONNREFUSED)",
    );
    // An unescaped "@" in the password hides the whole of it.
    expect(redactSecrets("postgresql://u:p@ss@host/db")).toBe("postgresql://u:***@host/db");
    expect(redactSecrets("postgresql://:only-a-password@host/db")).toBe("postgresql://:***@host/db");
    expect(redactSecrets("DATABASE_URL=postgresql://a:b@h/d and postgresql://c:d@h/e")).toBe(
      "DATABASE_URL=postgresql://a:***@h/d and postgresql://c:***@h/e",
    );
  });

  it("leaves URLs without a password as they are", () => {
    expect(redactSecrets("postgresql://postgres@127.0.0.1:5432/almanac")).toBe(
      "postgresql://postgres@127.0.0.1:5432/almanac",
    );
    expect(redactSecrets("http://127.0.0.1:3000/shoots/garden-dev/a?tab=history")).toBe(
      "http://127.0.0.1:3000/shoots/garden-dev/a?tab=history",
    );
  });

  it("hides secret query parameters and keeps the others", () => {
    expect(redactSecrets("GET http://localhost:3000/api/v1/events?token=abc.def&since=5")).toBe(
      "GET http://localhost:3000/api/v1/events?token=***&since=5",
    );
    expect(redactSecrets("/api/auth/callback?code=4%2F0Ab&state=xyz")).toBe("/api/auth/callback?code=***&state=xyz");
    expect(redactSecrets("/x?access_token=a&client_secret=b&api_key=c&X-Amz-Signature=d&password=e#top")).toBe(
      "/x?access_token=***&client_secret=***&api_key=***&X-Amz-Signature=***&password=***#top",
    );
    expect(redactSecrets("/blob?sv=2024&sig=abc%3D&key=k&assignee=me")).toBe(
      "/blob?sv=2024&sig=***&key=***&assignee=me",
    );
    const fleet = "/api/v1/shoots?status=healthy&sort=-expiry&cursor=eyJrIjoxfQ&limit=30&q=prod";
    expect(redactSecrets(fleet)).toBe(fleet);
  });

  it("hides the password of a libpq key=value connection string", () => {
    expect(redactSecrets("host=db user=almanac password=hunter2 dbname=almanac")).toBe(
      "host=db user=almanac password=*** dbname=almanac",
    );
    expect(redactSecrets("host=db password='with space' user=x")).toBe("host=db password=*** user=x");
  });

  it("hides Authorization credentials", () => {
    expect(redactSecrets("authorization: Bearer eyJhbGciOi.eyJzdWIi.sig-_")).toBe("authorization: Bearer ***");
    expect(redactSecrets("Authorization: Basic dXNlcjpwYXNz")).toBe("Authorization: Basic ***");
  });
});
