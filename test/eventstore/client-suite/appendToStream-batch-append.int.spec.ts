// Adapted from EventStore-Client-NodeJS v6.2.1, packages/test/src/streams/appendToStream-batch-append.test.ts
// (Apache License 2.0, copyright Event Store Ltd; text in src/eventstore/protos/LICENSE),
// run against the embedded event store. Changes: imports from ./harness (jest API on mocha, the embedded store as test node); clients connect without TLS; the client's internal StreamsClient class is matched as any function (no deep import).
import { EventStoreDBClient, describe, test, it, beforeAll, afterAll, afterEach, expect, jest, type SpiedFunction } from "./harness";
import type { Duplex } from "stream";

import {
  createTestNode,
  jsonTestEvents,
  matchServerVersion,
  optionalDescribe,
} from "./harness";


describe("appendToStream - batch append", () => {
  const supported = matchServerVersion`>=21.10`;

  const node = createTestNode();
  let client!: EventStoreDBClient;
  let batchSpy!: SpiedFunction<EventStoreDBClient["GRPCStreamCreator"]>;
  let executeSpy!: SpiedFunction<EventStoreDBClient["execute"]>;

  beforeAll(async () => {
    await node.up();
    client = new EventStoreDBClient(
      { endpoint: node.uri },
      { insecure: true },
      { username: "admin", password: "changeit" }
    );
    batchSpy = spyOn.call(client, "GRPCStreamCreator");
    executeSpy = spyOn.call(client, "execute");
  });

  afterAll(async () => {
    await node.down();
  });

  afterEach(() => {
    batchSpy.mockClear();
    executeSpy.mockClear();
  });

  optionalDescribe(!supported)("Not Supported (<21.10)", () => {
    test("Uses normal append", async () => {
      const STREAM_NAME = "uses_normal_append";

      const result = await client.appendToStream(STREAM_NAME, jsonTestEvents());
      expect(result).toBeDefined();
      expect(result.nextExpectedRevision).toBeGreaterThanOrEqual(0);

      expect(batchSpy).not.toHaveBeenCalled();
      expect(executeSpy).toHaveBeenCalledWith(
        expect.any(Function),
        "appendToStream",
        expect.any(Function)
      );
    });
  });

  optionalDescribe(supported)("Supported (>=21.10)", () => {
    test("Uses batch append", async () => {
      const STREAM_NAME = "uses_batch_append";

      const result = await client.appendToStream(STREAM_NAME, jsonTestEvents());
      expect(result).toBeDefined();
      expect(result.nextExpectedRevision).toBeGreaterThanOrEqual(0);

      expect(batchSpy).toHaveBeenCalledWith(
        expect.any(Function),
        "appendToStream",
        expect.any(Function),
        expect.any(WeakMap)
      );
    });

    test("Uses normal append if a credentials are passed", async () => {
      const STREAM_NAME = "uses_normal_append_if_creds_are_passed";

      const result = await client.appendToStream(
        STREAM_NAME,
        jsonTestEvents(),
        { credentials: { username: "admin", password: "changeit" } }
      );
      expect(result).toBeDefined();
      expect(result.nextExpectedRevision).toBeGreaterThanOrEqual(0);

      expect(batchSpy).not.toHaveBeenCalled();
      expect(executeSpy).toHaveBeenCalledWith(
        expect.any(Function),
        "appendToStream",
        expect.any(Function)
      );
    });

    test("Batches events into batches", async () => {
      await client.appendToStream("open_stream", jsonTestEvents());

      const stream = await extractBatchStream.call(
        client,
        ...batchSpy.mock.calls[0]
      );

      const writeSpy = jest.spyOn(stream, "write");

      const result = await client.appendToStream(
        "small_batch_size",
        jsonTestEvents(5_000),
        { batchAppendSize: 1024 }
      );

      expect(result).toBeDefined();
      expect(result.nextExpectedRevision).toBeGreaterThanOrEqual(0);

      expect(writeSpy).toHaveBeenCalledTimes(
        // (test event is 128 bytes)
        // (size * event count) / requested batch size
        (128 * 5_000) / 1024
      );
    });
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any */

function spyOn(this: EventStoreDBClient, method: string) {
  return jest.spyOn(this, method as never) as any;
}

function extractBatchStream(
  this: EventStoreDBClient,
  clientConstructor: any,
  name: any,
  _: any,
  cache: any
): Promise<Duplex> {
  return this.GRPCStreamCreator(
    clientConstructor,
    name,
    () => {
      throw "Creator shouldn't be called as it will take the client from the cache";
    },
    cache
  )();
}
