// pino-roll ships no type declarations: the part of its API we call
// (README "build(options) => SonicBoom"; options beyond these go to sonic-boom).
declare module 'pino-roll' {
  import type { EventEmitter } from 'node:events';

  interface PinoRollOptions {
    file: string;
    extension?: string;
    size?: string | number;
    frequency?: string | number;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
    mkdir?: boolean;
    sync?: boolean;
  }

  interface RollingStream extends EventEmitter {
    write(data: string): boolean;
    end(): void;
  }

  function pinoRoll(options: PinoRollOptions): Promise<RollingStream>;
  export default pinoRoll;
}
