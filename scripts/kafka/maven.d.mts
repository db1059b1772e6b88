export function runCaptured(cmd: string, args: string[]): Promise<{ code: number | null; output: string }>;
export function mavenErrors(output: string, max?: number): string;
