// The sandbox's own test helpers: a sandbox stopped after each test, on a clock that only moves when
// told. The HTTP helpers and the document checks come from the test kit.
import { fakeClock, stoppedAfterEach } from "@engage-voice/test-kit";
import { type RunningSandbox, type StartSandboxOptions, startSandbox } from "../src/node.js";

export * from "@engage-voice/test-kit";

/** A fixed, moveable clock at 2030-01-01 12:00 UTC: expiry and rate limits are tested without waiting. */
export const manualClock = (start = Date.UTC(2030, 0, 1, 12, 0, 0)) => fakeClock(start);

const openSandbox = stoppedAfterEach(startSandbox);

/** Starts a sandbox that is stopped after the current test. */
export const open = (options: StartSandboxOptions = {}): Promise<RunningSandbox> => openSandbox(options);
