// Types of scripts/kafka/ready.mjs.
export declare function probeCluster(brokers: string[], options?: { timeoutMs?: number }): Promise<string[]>;
export declare function waitForCluster(
  brokers: string[],
  options?: { timeoutMs?: number; intervalMs?: number; isAlive?: () => boolean },
): Promise<void>;
export declare function warmUp(brokers: string[]): Promise<void>;
