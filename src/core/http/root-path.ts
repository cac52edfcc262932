import type { Context } from 'koa';

/**
 * The root path a request came in under (e.g. `/itemsense`), found as what
 * precedes the first `<base>/` in the path, so that a `Location` header can be
 * the full path. The router does not change `ctx.path`, and a path parameter
 * cannot hold an unescaped `/`, so the first occurrence of the base is where
 * the interface's paths begin.
 */
export function rootPathBefore(ctx: Pick<Context, 'path'>, base: string): string {
  const at = ctx.path.indexOf(`${base}/`);
  return at > 0 ? ctx.path.slice(0, at) : '';
}
