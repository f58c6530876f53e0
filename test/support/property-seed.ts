/**
 * Every property test of the run draws from one fixed seed (vitest setupFiles), so a run is
 * repeatable; fast-check names the seed and the path of a failure in its message. Set
 * `PROPERTY_SEED` to explore with another.
 */
import fc from 'fast-check';

const seed = Number(process.env['PROPERTY_SEED'] ?? 20_261_126);
fc.configureGlobal({ seed });
