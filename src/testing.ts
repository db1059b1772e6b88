/**
 * `sluice/testing`: the embedded cluster and the topology test driver.
 */
export {};
