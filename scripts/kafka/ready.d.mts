// Types of scripts/kafka/ready.mjs. `client`: extra kafkajs options (ssl, sasl) for a secure broker.
export declare function probeCluster(brokers: string[], options?: { timeoutMs?: number; client?: object }): Promise<string[]>;
export declare function waitForCluster(
  brokers: string[],
  options?: { timeoutMs?: number; intervalMs?: number; isAlive?: () => boolean; client?: object },
): Promise<void>;
export declare function warmUp(brokers: string[], options?: { timeoutMs?: number; client?: object }): Promise<void>;
