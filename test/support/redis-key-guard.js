// Records every Redis command of this process that touches a key outside the
// test namespace (`tagtrail-test-...`): the Redis of the machine is shared with
// services that may be running and with other test runs, so a test must only
// ever touch keys of its own random prefix. Plain CommonJS, because child
// processes load it through NODE_OPTIONS before tsx is registered.
//
// How: every command of node-redis, typed, raw, in MULTI or pipelines, is
// queued through RedisCommandsQueue#addCommand; the guard wraps that method
// and reads the command's keys from its arguments. It sees only this
// process's commands, so test runs and services sharing the Redis never
// disturb it (unlike MONITOR or keyspace notifications, which see every
// client and need server configuration). Violations are kept in memory and,
// when TAGTRAIL_REDIS_GUARD_DIR is set (the mocha root hook sets it for the
// run and its child processes), appended to <dir>/<pid>.jsonl.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { Buffer } = require('node:buffer');

const ALLOWED_PREFIX = 'tagtrail-test-';
const DIR_VARIABLE = 'TAGTRAIL_REDIS_GUARD_DIR';

// Commands that name no key.
const KEYLESS = new Set(
  [
    'AUTH', 'HELLO', 'PING', 'ECHO', 'QUIT', 'RESET', 'SELECT', 'CLIENT', 'INFO', 'TIME', 'COMMAND', 'CONFIG', 'DBSIZE',
    'MULTI', 'EXEC', 'DISCARD', 'UNWATCH', 'SCRIPT', 'FUNCTION', 'READONLY', 'READWRITE', 'WAIT', 'LATENCY', 'MEMORY',
    'SLOWLOG', 'ROLE', 'LASTSAVE', 'PUBLISH', 'SPUBLISH', 'SUBSCRIBE', 'UNSUBSCRIBE', 'PSUBSCRIBE', 'PUNSUBSCRIBE',
    'SSUBSCRIBE', 'SUNSUBSCRIBE', 'PUBSUB', 'CLUSTER', 'ACL',
  ],
);
// Commands that touch every key of the server: never allowed in tests.
const SERVER_WIDE = new Set(['FLUSHALL', 'FLUSHDB', 'SWAPDB', 'MONITOR', 'SHUTDOWN', 'DEBUG', 'RANDOMKEY', 'MOVE']);
// Every argument after the name is a key.
const ALL_KEYS = new Set(['DEL', 'UNLINK', 'EXISTS', 'MGET', 'TOUCH', 'WATCH', 'SINTER', 'SUNION', 'SDIFF', 'PFCOUNT']);
// The first two arguments are keys.
const TWO_KEYS = new Set(['RENAME', 'RENAMENX', 'COPY', 'SMOVE', 'LMOVE', 'BLMOVE', 'RPOPLPUSH', 'BRPOPLPUSH', 'SINTERSTORE', 'SUNIONSTORE', 'SDIFFSTORE']);
// Every argument but the last (a timeout) is a key.
const KEYS_THEN_TIMEOUT = new Set(['BLPOP', 'BRPOP', 'BZPOPMIN', 'BZPOPMAX']);

const text = (a) => (Buffer.isBuffer(a) ? a.toString('utf8') : String(a));

/** The keys (and key patterns, for SCAN/KEYS) a command touches, or `['*']` for a server-wide one. */
function keysOf(args) {
  const name = text(args[0]).toUpperCase();
  const rest = args.slice(1).map(text);
  if (KEYLESS.has(name)) return [];
  if (SERVER_WIDE.has(name)) return ['*'];
  if (ALL_KEYS.has(name)) return rest;
  if (TWO_KEYS.has(name)) return rest.slice(0, 2);
  if (KEYS_THEN_TIMEOUT.has(name)) return rest.slice(0, -1);
  if (name === 'MSET' || name === 'MSETNX') return rest.filter((_, i) => i % 2 === 0);
  if (name === 'EVAL' || name === 'EVALSHA' || name === 'EVAL_RO' || name === 'EVALSHA_RO' || name === 'FCALL' || name === 'FCALL_RO') {
    const n = Number(rest[1] ?? 0);
    return rest.slice(2, 2 + n);
  }
  if (name === 'XREAD' || name === 'XREADGROUP') {
    const at = rest.findIndex((a) => a.toUpperCase() === 'STREAMS');
    if (at < 0) return [];
    const streams = rest.slice(at + 1);
    return streams.slice(0, streams.length / 2);
  }
  if (name === 'SCAN') {
    // A scan without MATCH reads the names of every key.
    const at = rest.findIndex((a) => a.toUpperCase() === 'MATCH');
    return [at < 0 ? '*' : rest[at + 1] ?? '*'];
  }
  if (name === 'KEYS') return [rest[0] ?? '*'];
  return rest.length > 0 ? [rest[0]] : [];
}

const violations = [];

function record(args) {
  const outside = keysOf(args).filter((k) => !k.startsWith(ALLOWED_PREFIX));
  if (outside.length === 0) return;
  const entry = { pid: process.pid, command: text(args[0]).toUpperCase(), keys: outside.map((k) => k.slice(0, 200)) };
  violations.push(entry);
  // The run's own process keeps them in memory; its children hand them over in files.
  const dir = process.env[DIR_VARIABLE];
  if (dir && !isRunProcess) {
    try {
      fs.appendFileSync(path.join(dir, `${process.pid}.jsonl`), JSON.stringify(entry) + '\n');
    } catch {
      // The run's directory is gone (the run ended): nobody is left to tell.
    }
  }
}

let installed = false;
let isRunProcess = false;

/** Wraps node-redis's command queue of this process (once). `runProcess`: the mocha process, which reports. */
function install(runProcess = false) {
  if (runProcess) isRunProcess = true;
  if (installed) return;
  installed = true;
  const queuePath = require.resolve('@redis/client/dist/lib/client/commands-queue', { paths: [path.resolve(__dirname, '..', '..')] });
  const Queue = require(queuePath).default;
  const addCommand = Queue.prototype.addCommand;
  Queue.prototype.addCommand = function guardedAddCommand(args, options) {
    try {
      record(args);
    } catch {
      // Never let the guard break a command.
    }
    return addCommand.call(this, args, options);
  };
}

/** Violations recorded in this process that `pred` matches, removed from the record (for the guard's own test). */
function take(pred) {
  const taken = violations.filter(pred);
  for (const v of taken) violations.splice(violations.indexOf(v), 1);
  return taken;
}

// A child process of a guarded run: guard it too.
if (process.env[DIR_VARIABLE]) install();

module.exports = { install, keysOf, violations, take, ALLOWED_PREFIX, DIR_VARIABLE };
