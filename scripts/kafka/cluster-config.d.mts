// Types of scripts/kafka/cluster-config.mjs.
export declare function clusterNodes(port: number, nodes: number): { id: number; port: number; controllerPort: number }[];
export declare function clusterNodeProperties(options: {
  id: number;
  nodes: { id: number; port: number; controllerPort: number }[];
  dataDir: string;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
}): string;
