// What init reads from a Dockerfile: the stage `docker build` builds (the target, else the last),
// with what the stages it is built FROM declared, variables substituted only where plain, and
// every value it could not read said rather than guessed.
import { describe, expect, it } from "vitest";
import { goDuration, readImageFacts } from "../../src/commands/init/dockerfile.js";

const lines = (...l: string[]) => `${l.join("\n")}\n`;

describe("readImageFacts", () => {
  it("reads the last stage of a multi-stage file, not the build stages before it", () => {
    const f = readImageFacts(
      lines(
        "FROM golang:1.22 AS build",
        "USER root",
        "EXPOSE 1234",
        "VOLUME /go/cache",
        "HEALTHCHECK CMD true",
        "FROM gcr.io/distroless/static:nonroot",
        "USER 65532:65532",
        "EXPOSE 8080",
      ),
    );
    expect(f.stage).toEqual({ name: undefined, line: 6, count: 2 });
    expect(f.base).toBe("gcr.io/distroless/static:nonroot");
    expect(f.user).toEqual({ value: "65532:65532", line: 7 });
    expect(f.ports).toEqual([{ value: 8080, line: 8 }]);
    expect(f.volumes).toEqual([]);
    expect(f.healthcheck).toBeUndefined();
  });

  it("reads the target stage when one is given, and says when there is no such stage", () => {
    const text = lines("FROM a AS one", "EXPOSE 1", "FROM b AS two", "EXPOSE 2");
    expect(readImageFacts(text, {}, "ONE").ports.map((p) => p.value)).toEqual([1]);
    const missing = readImageFacts(text, {}, "three");
    expect(missing.ports).toEqual([]);
    expect(missing.notes).toEqual(['the Dockerfile has no stage named "three"']);
  });

  it("a stage FROM an earlier stage inherits its USER, ports, volumes, HEALTHCHECK and ENV", () => {
    const f = readImageFacts(
      lines(
        "FROM debian AS base",
        "ENV PORT=7000",
        "USER 10001",
        "VOLUME /data",
        "HEALTHCHECK --interval=5s CMD true",
        "FROM base AS app",
        "EXPOSE $PORT",
        "FROM debian AS other",
        "EXPOSE 9",
      ),
      {},
      "app",
    );
    expect(f.base).toBe("debian");
    expect(f.user).toEqual({ value: "10001", line: 3 });
    expect(f.ports).toEqual([{ value: 7000, line: 7 }]);
    expect(f.volumes).toEqual([{ value: "/data", line: 4 }]);
    expect(f.healthcheck).toEqual({ line: 5, intervalMs: 5000, timeoutMs: 30_000, startPeriodMs: 0 });
  });

  it("substitutes ARG defaults, build args and ENV, keeping global ARGs to FROM lines", () => {
    const text = lines(
      "ARG BASE=busybox",
      "ARG PORT=1000",
      "FROM ${BASE}",
      "ARG PORT",
      "ARG UID=10001",
      "ENV LISTEN=${PORT:-1}",
      "USER ${UID}:${UID}",
      "EXPOSE ${LISTEN}/tcp 53/udp",
    );
    const plain = readImageFacts(text);
    expect(plain.base).toBe("busybox");
    expect(plain.user?.value).toBe("10001:10001");
    expect(plain.ports.map((p) => p.value)).toEqual([1000]);
    const given = readImageFacts(text, { BASE: "alpine", PORT: "2000", UID: "7" });
    expect([given.base, given.user?.value, given.ports.map((p) => p.value)]).toEqual([
      "alpine",
      "7:7",
      [2000],
    ]);
    // A global ARG not declared again in the stage has no value there.
    const unscoped = readImageFacts(lines("ARG PORT=1", "FROM x", "EXPOSE $PORT"));
    expect(unscoped.ports).toEqual([]);
    expect(unscoped.notes).toEqual(['line 3: $PORT has no value here, so "$PORT" was not read']);
  });

  it("keeps an unreadable USER as written, so it is never taken for root", () => {
    const f = readImageFacts(lines("FROM x", "USER ${APP_USER}"));
    expect(f.user).toEqual({ value: "${APP_USER}", line: 2 });
    expect(f.notes).toHaveLength(1);
  });

  it("reads VOLUME in both forms, EXPOSE ranges, and says what is not a path or port", () => {
    const f = readImageFacts(
      lines("FROM x", 'VOLUME ["/a", "/b/"]', "VOLUME /c /d", "VOLUME rel", "EXPOSE 8000-8010 99999 http"),
    );
    expect(f.volumes.map((v) => v.value)).toEqual(["/a", "/b", "/c", "/d"]);
    expect(f.ports.map((p) => p.value)).toEqual([8000]);
    expect(f.notes).toEqual([
      "line 4: VOLUME rel is not an absolute path",
      "line 5: EXPOSE 99999 is not a port",
      "line 5: EXPOSE http is not a port",
    ]);
  });

  it("HEALTHCHECK NONE clears an inherited check; continuation lines count from their first", () => {
    const f = readImageFacts(
      lines(
        "FROM x AS a",
        "HEALTHCHECK \\",
        "  --interval=1m30s --timeout=3s CMD true",
        "FROM a",
        "HEALTHCHECK NONE",
      ),
    );
    expect(f.healthcheck).toBeUndefined();
    const g = readImageFacts(lines("FROM x", "HEALTHCHECK \\", "  --interval=1m30s --timeout=3s CMD true"));
    expect(g.healthcheck).toEqual({ line: 2, intervalMs: 90_000, timeoutMs: 3000, startPeriodMs: 0 });
  });

  it("knows when PID 1 is a shell: a shell-form CMD or ENTRYPOINT, not under an exec-form ENTRYPOINT", () => {
    expect(readImageFacts(lines("FROM x", "CMD npm start")).shellPid1).toEqual({ value: "CMD", line: 2 });
    expect(readImageFacts(lines("FROM x", 'ENTRYPOINT ["/app"]', "CMD --flag")).shellPid1).toBeUndefined();
    expect(readImageFacts(lines("FROM x", "CMD run", 'CMD ["run"]')).shellPid1).toBeUndefined();
    expect(readImageFacts(lines("FROM x", "ENTRYPOINT /app", 'CMD ["x"]')).shellPid1?.value).toBe(
      "ENTRYPOINT",
    );
  });

  it("lists what COPY and ADD read from the context, not from stages, URLs or heredocs", () => {
    const f = readImageFacts(
      lines(
        "FROM x",
        "COPY --chown=1:1 app.py lib/ /srv/",
        "COPY --from=build /out /out",
        'COPY ["a b", "/c"]',
        "ADD https://example.com/x /x",
        "COPY *.txt /t/",
        "COPY <<EOF /f",
      ),
    );
    expect(f.copySources).toEqual(["app.py", "lib/", "a b"]);
  });
});

describe("goDuration", () => {
  it.each([
    ["30s", 30_000],
    ["1m30s", 90_000],
    ["500ms", 500],
    ["1h", 3_600_000],
    ["1.5s", 1500],
  ])("%s is %d ms", (text, ms) => expect(goDuration(text)).toBe(ms));
  it.each(["", "30", "s", "1x"])("%j is not a duration", (text) => expect(goDuration(text)).toBeUndefined());
});
