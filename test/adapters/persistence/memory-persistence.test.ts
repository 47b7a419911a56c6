import { createMemoryPersistence } from '../../../src/adapters/persistence/memory-persistence.js';
import { describeJobPersistence } from '../../ports/job-persistence.contract.js';

describeJobPersistence('memory', async () => ({ persistence: createMemoryPersistence() }));
