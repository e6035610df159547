import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The BFCL v4 files the conformance and import tests read, copied into the project (datasets/bfcl, with
 * their licence and NOTICE) so that the suite needs nothing beside the repository.
 */
export const BFCL_DATA_DIR = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'datasets', 'bfcl');
