/**
 * Property checks with a fixed seed: every run tries the same cases, and a failure names the
 * seed (and fast-check's path) so it can be replayed.
 */
import fc from 'fast-check';

/** The seed of every property test in this folder. */
export const PROPERTY_SEED = 424_242;

/** Runs `property` with the fixed seed; a failure's message starts with the seed. */
export function checkProperty<T>(property: fc.IProperty<T> | fc.IAsyncProperty<T>, options: { numRuns?: number } = {}): void | Promise<void> {
  const params = { seed: PROPERTY_SEED, numRuns: options.numRuns ?? 200 };
  const report = (error: unknown): never => {
    throw new Error(`fast-check seed ${PROPERTY_SEED}: ${error instanceof Error ? error.message : String(error)}`);
  };
  if (property.isAsync()) return fc.assert(property as fc.IAsyncProperty<T>, params).catch(report);
  try {
    fc.assert(property as fc.IProperty<T>, params);
  } catch (error) {
    report(error);
  }
}
