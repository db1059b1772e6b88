// Types of scripts/kafka/paths.mjs (plain Node ESM, used by tests that run Kafka's Java clients).

export declare const repoRoot: string;
export declare const kafkaHome: string;
export declare const pomFile: string;
export declare const log4jConfigFile: string;
/** Folder holding the jars of one Kafka version (the broker's, kafka-clients and its codecs included). */
export declare function libsDir(version: string): string;
export declare function libsMarker(version: string): string;
export declare function runDir(port: number | string): string;
