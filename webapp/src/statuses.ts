// The catalogue key of each status an API answer names, for the screens that show it.
export const PRONOSTIC_STATUS = {
  processing: 'statusProcessing',
  success: 'statusSuccess',
  cancelled: 'statusCancelled',
} as const;
