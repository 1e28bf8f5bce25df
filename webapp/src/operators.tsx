// The mobile-money operators a payment or a withdrawal goes through, with their icons (served by
// the app itself: the API keeps the icon's URL for display), and the picker both screens show.
import { t } from './i18n/index.js';

export const OPERATORS = [
  { id: 'mtn', label: () => t('operatorMtn'), icon: '/app/icons/mtn-momo.svg' },
  { id: 'orange', label: () => t('operatorOrange'), icon: '/app/icons/orange-money.svg' },
] as const;

export type OperatorId = (typeof OPERATORS)[number]['id'];

/** What the API keeps of the operator the person chose: its name and its icon's URL. */
export function operatorOf(id: OperatorId): { name: string; icon: string } {
  const operator = OPERATORS.find((candidate) => candidate.id === id)!;
  return { name: operator.label(), icon: new URL(operator.icon, location.origin).toString() };
}

/** The operator fieldset of a checkout or a withdrawal: a radio per operator, with its icon. */
export function OperatorChoice({
  name,
  value,
  onChange,
}: {
  name: string;
  value: OperatorId;
  onChange: (id: OperatorId) => void;
}) {
  return (
    <fieldset>
      <legend>{t('operator')}</legend>
      {OPERATORS.map((candidate) => (
        <label key={candidate.id} class="choice">
          <input
            type="radio"
            name={name}
            checked={value === candidate.id}
            onChange={() => onChange(candidate.id)}
          />
          <img src={candidate.icon} alt="" width={32} height={32} />
          {candidate.label()}
        </label>
      ))}
    </fieldset>
  );
}
