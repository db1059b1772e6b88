// Types of scripts/kafka/prereq.mjs.
export declare class KafkaSetupError extends Error {}
export declare function javaCommand(): string;
export declare function checkJava(): number;
export declare function checkMaven(): void;
export declare function localBrokerPossible(jarsCached: boolean): { ok: true } | { ok: false; reason: string };
