export { wilson, Z_95, type Interval } from './wilson';
export { mcnemarExact } from './mcnemar';
export { zeroFailureUpperBound, trialsForBound, ALPHA_95 } from './bounds';
export { passHatK, type PassHatK } from './pass-k';
