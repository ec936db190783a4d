// A token answer is read into a buffer that grows with it, up to the bound: thousands of tenants whose
// first calls start at once must not each hold a buffer of the bound (it cost gigabytes).
import { describe, expect, it } from "vitest";
import {
  FIRST_BUFFER_BYTES,
  limitedFetch,
  MAX_ANSWER_BYTES,
  ResponseTooLargeError,
} from "../src/limited-fetch.js";

const answer = (bytes: number) => async () => new Response("x".repeat(bytes));

describe("the buffer of an answer read whole", () => {
  it("holds what the answer holds, not the bound: 500 answers of 1 kB stay far under 500 bounds", async () => {
    const read = limitedFetch(answer(1_000));
    const before = process.memoryUsage().arrayBuffers;
    const kept = await Promise.all(Array.from({ length: 500 }, () => read(new Request("https://h.test/"))));
    const grew = process.memoryUsage().arrayBuffers - before;
    expect(grew).toBeLessThan((500 * MAX_ANSWER_BYTES) / 10);
    expect(await kept[0]?.text()).toHaveLength(1_000);
  });

  it("grows past its first size for a larger answer, and still stops at the bound", async () => {
    const larger = FIRST_BUFFER_BYTES * 5 + 7;
    expect(await (await limitedFetch(answer(larger))(new Request("https://h.test/"))).text()).toHaveLength(
      larger,
    );
    await expect(
      limitedFetch(answer(MAX_ANSWER_BYTES + 1))(new Request("https://h.test/")),
    ).rejects.toBeInstanceOf(ResponseTooLargeError);
  });
});
