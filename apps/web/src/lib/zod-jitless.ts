import { config } from 'zod'

/**
 * Imported first by every entry point, before any schema is built: zod otherwise probes
 * `new Function('')` to decide whether to compile its object parsers, and under our CSP (no
 * 'unsafe-eval' in production, ADR 027) the browser reports that probe as a violation even though
 * zod catches it. Jitless parsing costs nothing we can measure at our payload sizes.
 */
config({ jitless: true })
