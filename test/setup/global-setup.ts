// Placeholder: replaced by the broker wiring (issue 2). Provides nothing yet.
export default async function setup(): Promise<void> {}
