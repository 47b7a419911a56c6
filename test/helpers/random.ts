/** mulberry32: a small seeded PRNG, so failures of property tests reproduce (one implementation, in src). */
export { mulberry32 } from '../../src/core/random.js';
