export { wilson, Z_95, type Interval } from './wilson';
export { mcnemar, mcnemarExact, mcnemarMidP, type McNemar } from './mcnemar';
export { zeroFailureUpperBound, trialsForBound, ALPHA_95 } from './bounds';
export { passHatK, type PassHatK } from './pass-k';
export { studentTCdf, studentTQuantile, t95 } from './t-dist';
export {
  clusteredMean,
  clusteredProportion,
  pairedDifference,
  type ClusterSum,
  type ClusteredEstimate,
  type ClusteredProportion,
  type PairCluster,
  type PairedDifference,
} from './clustered';
export { cohensKappa, cohensKappa2x2, type Kappa } from './kappa';
export { holmAdjusted, cochranQ, type Heterogeneity } from './multiplicity';
