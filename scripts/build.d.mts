/** Why dist/ must be built again, or undefined when it is fresh (scripts/build.mjs). */
export declare function staleReason(builtMs: number | undefined, sources: ReadonlyArray<{ readonly file: string; readonly mtimeMs: number }>): string | undefined;
