// A small task experiment: the task-completion template's invoice scenario with one case ("pay a
// confirmed invoice"), both conditions — two trials. For engine, wire and page tests.
import type { ExperimentSpecInput } from '../schema/experiment';
import { taskCompletionInput } from '../templates/task-completion';

export function smallTaskExperiment(id: string, caseId = 'pay-confirmed'): ExperimentSpecInput {
  const full = taskCompletionInput();
  const study = full.studies[0];
  return {
    ...full,
    id,
    name: `Task experiment ${id}`,
    scenarios: full.scenarios.filter((s) => s.id === 'invoice'),
    studies: [
      {
        ...study,
        conditions: study.conditions.map((c) => ({ ...c, tools: { invoice: c.tools.invoice } })),
        cases: study.cases.filter((c) => (c as { id?: string }).id === caseId),
      },
    ],
    prechecks: [],
  };
}

/** The three turns a scripted model gives for "pay invoice INV-2027-0042": look up, pay, report. */
export const PAY_SCRIPT_CALLS = {
  lookup: { name: 'get_invoice', arguments: { invoice_number: 'INV-2027-0042' } },
  pay: { name: 'submit_payment', arguments: { invoice_number: 'INV-2027-0042', amount: 12500, payment_method: 'bank_transfer' } },
  text: 'Paid: the payment of 12,500 TWD for INV-2027-0042 went through.',
};
