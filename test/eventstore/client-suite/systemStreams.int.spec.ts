// Adapted from EventStore-Client-NodeJS v6.2.1, packages/test/src/streams/systemStreams.test.ts
// (Apache License 2.0, copyright Event Store Ltd; text in src/eventstore/protos/LICENSE),
// run against the embedded event store. Changes: the suite is named "systemStreams functions"; imports from ./harness (jest API on mocha, the embedded store as test node).
import { describe, test, expect } from "./harness";
import {
  isMetastream,
  isSystemStream,
  metastreamOf,
  originalStreamOf,
} from "@eventstore/db-client";

describe("systemStreams functions", () => {
  describe("isSystemStream", () => {
    test.each([
      ["hello", false],
      ["", false],
      ["$hello", true],
      ["$$hello", true],
    ])("%s", (name, expected) => {
      expect(isSystemStream(name)).toBe(expected);
    });
  });

  describe("isMetastream", () => {
    test.each([
      ["hello", false],
      ["", false],
      ["$hello", false],
      ["$$hello", true],
    ])("%s", (name, expected) => {
      expect(isMetastream(name)).toBe(expected);
    });
  });

  test("metastreamOf", () => {
    expect(metastreamOf("hello")).toBe("$$hello");
  });

  test("originalStreamOf", () => {
    expect(originalStreamOf("$$hello")).toBe("hello");
  });
});
