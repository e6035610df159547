/** A new experiment with nothing in it yet: the designer's starting draft (invalid until it has content). */
export function emptyExperiment(id: string, name: string): Record<string, unknown> {
  return { format: 'tclab.experiment/v1', id, name, description: '', locales: ['en'], scenarios: [], studies: [], replicates: 1, prechecks: [] };
}
