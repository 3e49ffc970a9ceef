/**
 * Imported first by every entry point, before any schema is built: zod otherwise probes
 * `new Function('')` to decide whether to compile its object parsers, and under our CSP (no
 * 'unsafe-eval' in production, ADR 027) the browser reports that probe as a violation even though
 * zod catches it. Jitless parsing costs nothing we can measure at our payload sizes.
 *
 * Without importing zod: the shop loads zod only with its first check of an answer, after the first
 * render (issue 13, lib/lazy-schema.ts). zod keeps its configuration in this global and takes the
 * object it finds there (zod/v4/core `globalConfig`), so what is set here holds whenever zod loads;
 * zod-jitless.test.ts checks that the installed zod still reads it.
 */
interface ZodGlobal {
  __zod_globalConfig?: { jitless?: boolean }
}

const zod = globalThis as ZodGlobal
;(zod.__zod_globalConfig ??= {}).jitless = true
