// The English catalogue: the French one's keys and placeholders, key for key (the catalogue test
// compares them). Numbers and plurals go through Intl, never string concatenation.
import type { Catalogue } from './fr.js';

const plural = new Intl.PluralRules('en');
const number = new Intl.NumberFormat('en');
const xaf = (amount: number) => `${number.format(amount)} XAF`;

/** `1 credit`, `2 credits`: the noun's form for `count` by English's plural rules. */
function counted(count: number, one: string, other: string): string {
  return `${number.format(count)} ${plural.select(count) === 'one' ? one : other}`;
}

const typeNames: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/** The analysis's counts: `1 goal`, `2 goals`, the figure as it is (never above a few dozen). */
function times(count: number, one: string, other: string): string {
  return `${count} ${plural.select(count) === 'one' ? one : other}`;
}

/** A share in English: `54%`. */
function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** A figure with one decimal in English: `1.4`. */
function decimal(value: number): string {
  return value.toFixed(1);
}

function duration(seconds: number): string {
  if (seconds % 60 !== 0) return counted(seconds, 'second', 'seconds');
  return counted(seconds / 60, 'minute', 'minutes');
}

export const en: Catalogue = {
  messages: {
    ok: 'OK.',
    unauthenticated: 'Not authenticated.',
    forbidden: 'Access denied.',
    adminOnly: 'Restricted to administrators.',
    notFound: 'Resource not found.',
    routeNotFound: 'This route does not exist.',
    methodNotAllowed: 'Method not allowed for this route.',
    payloadTooLarge: 'The request body is too large.',
    unsupportedMediaType: 'Unsupported content type.',
    badRequest: 'Invalid request.',
    validationFailed: 'The data sent is invalid.',
    invalidJson: 'The request body is not valid JSON.',
    emptyBody: 'The request body is empty.',
    tooManyRequests: 'Too many requests. Try again later.',
    tooManyStreams: 'Too many event streams open. Close one or try again later.',
    lastEventIdInvalid: 'Last-Event-ID must be a non-negative integer.',
    serverError: 'An internal error occurred. Try again later.',
    otpSent: 'A verification code has been sent to you.',
    otpSendFailed: 'The code could not be sent. Try again in a moment.',
    otpInvalid: 'Invalid or expired code.',
    otpVerified: 'Signed in.',
    otpResendCooldown: 'Please wait before asking for a new code.',
    otpTooManyCodes: 'Too many codes requested. Try again later.',
    phoneInvalid: 'The phone number is invalid: use the international format (e.g. +237690000000).',
    phoneNotForCountry: 'The phone number is not valid for this country.',
    countryInvalid: 'The country field must be a two-letter country code (e.g. CM).',
    otpCodeFormat: 'The code must contain 6 digits.',
    requestInFlight: 'An identical request is already being processed.',
    serviceUnavailable: 'Service temporarily unavailable.',
    healthOk: 'The service is running.',
    healthDegraded: 'The service is degraded: the database is not answering.',
    loggedOut: 'You are signed out.',
    idempotencyKeyInvalid: 'The Idempotency-Key header must contain 1 to 255 printable characters.',
    idempotencyKeyReused: 'This Idempotency-Key has already been used for another request.',
    pronosticTypes: 'Prediction types.',
    pronosticCreated: 'Your prediction is being analysed.',
    pronosticList: 'Your predictions.',
    trackRecord: 'Track record of all our settled analyses.',
    trackRecordOwn: 'Track record of your settled analyses.',
    pronosticDetail: 'Prediction details.',
    pronosticDeleted: 'Prediction deleted.',
    pronosticNotFound: 'Prediction not found.',
    fixtures: 'Upcoming matches.',
    adminFixtures: 'Upcoming matches and their predictions.',
    competitions: 'Competitions.',
    adminCompetitionHealth: 'Sync health of each competition.',
    fixture: 'Match.',
    fixtureNotFound: 'Match not found.',
    fixtureUnknown: 'This match does not exist.',
    fixtureKickedOff: 'This match has already started: choose an upcoming match.',
    fixtureNotScheduled: 'This match is not scheduled (played or postponed).',
    fixtureBadDate: 'The field must be an ISO 8601 date (YYYY-MM-DD or date and time).',
    fixtureBadRange: 'The end of the period is before its start.',
    adminTeams: 'Known teams.',
    fixtureCreated: 'Match added.',
    fixtureUpdated: 'Match updated.',
    fixturesImported: 'Fixtures imported.',
    fixtureExists: 'This match exists already (same teams, same competition, same season).',
    fixtureUnknownCompetition:
      'Unknown competition: give the code of a competition of the catalogue (E0, UCL, INT-AFCON…).',
    fixtureUnknownTeam: 'Unknown team: pick a known team (or import a file that names it).',
    fixtureSameTeams: 'A team does not play itself.',
    fixtureBadKickoff:
      'The field must be an ISO 8601 date and time (YYYY-MM-DDTHH:MM, time zone optional, UTC by default).',
    fixtureKickoffPast: 'The kick-off must be ahead (and within two years).',
    fixtureRegularScoreNotKnockout: 'The 90-minute score is only entered for a knockout match.',
    fixturesImportFileRequired: 'The file is required (field file).',
    fixturesImportUnreadable:
      'Unreadable file: neither the international results file’s columns nor a Football.TXT file.',
    fixturesImportTooManyRows: 'Too many matches in the file.',
    teamsDetailsOrFixture: 'The teams_details field is required without fixture_id.',
    pronosticForbidden: 'Access denied: this prediction is not yours.',
    insufficientCredits: 'Not enough credits for this prediction type.',
    unknownPronosticType: 'The selected prediction type is invalid or inactive.',
    sameTeams: 'The home and away teams must be different.',
    teamsDetailsTooLarge: 'The teams_details field must not exceed 2048 bytes.',
    invalidMatchDate: 'The teams_details.date field must be an ISO 8601 date (YYYY-MM-DD or date and time).',
    blankField: 'The field must not be empty.',
    pronosticDebitDescription: 'Prediction',
    pronosticRefundDescription: 'Prediction refund',
    analysisFailed: 'The analysis could not be completed. Your credits have been refunded.',
    analysisQueueFull:
      'Analyses are in high demand right now. Try again in a few seconds: no credit has been debited.',
    analysisTimedOut: 'The analysis took too long. Your credits have been refunded.',
    analysisUnsupportedType:
      'This prediction type is not yet supported by our analysis engine. Your credits have been refunded.',
    phoneNotMobile: 'The phone number must be a mobile number.',
    otpBudgetExhausted: 'Sending codes is limited for the moment. Try again later.',
    auditList: 'Log of administrators’ actions.',
    eventHistory: 'Your events.',
    streamKeyIssued: 'Stream key created: it opens one stream, within the minute.',
    adminEventHistory: 'Back-office events.',
    deviceRegistered: 'Device registered: it will receive your notifications.',
    deviceList: 'Your devices registered for notifications.',
    deviceForgotten: 'Device removed: it will no longer receive notifications.',
    deviceNotFound: 'Device not found.',
    packList: 'Available credit packs.',
    adminPackList: 'Credit packs.',
    packCreated: 'Pack created.',
    packUpdated: 'Pack updated.',
    packActivated: 'Pack activated.',
    packDeactivated: 'Pack deactivated.',
    packNotFound: 'Pack not found.',
    packNothingToChange: 'Give at least one field to change: name, credits or price.',
    packNameBlank: 'The name field must contain at least 2 characters other than spaces.',
    paymentCreated: 'Payment started: confirm it on your phone.',
    paymentDetail: 'Payment details.',
    paymentNotFound: 'Payment not found.',
    paymentForbidden: 'Access denied: this payment is not yours.',
    paymentPhoneInvalid: 'The paying number must be a valid Cameroonian mobile number (e.g. +237670000000).',
    paymentTooManyPending: 'You have too many pending payments. Complete them or try again later.',
    unknownPack: 'The selected pack is invalid or inactive.',
    webhookReceived: 'Notification received.',
    walletOperations: 'History of your operations.',
    walletLatestTransactions: 'Your latest transactions.',
    invalidFromDate: 'The from field must be a valid date in the YYYY-MM-DD format.',
    invalidToDate: 'The to field must be a valid date in the YYYY-MM-DD format.',
    fromAfterTo: 'The start date (from) must be before or equal to the end date (to).',
    dashboard: 'Your dashboard.',
    affiliationCodeInvalid: 'The referral code must contain 8 capital letters or digits.',
    affiliationCodeUnknown: 'This referral code does not exist or is no longer active.',
    affiliationCodeOwn: 'You cannot use your own referral code.',
    affiliationAlreadyApplied: 'You already have a sponsor: a referral code applies only once.',
    affiliationCycle: 'This referral code belongs to one of your referrals: referrals cannot loop.',
    affiliationApplied: 'Referral code applied.',
    affiliationOverview: 'Your referral wallet.',
    affiliationGodchildren: 'Your referrals.',
    withdrawalList: 'Your withdrawals.',
    withdrawalCreated: 'Your withdrawal request has been recorded.',
    withdrawalPhoneInvalid:
      'The withdrawal number must be a valid Cameroonian mobile number (e.g. +237670000000).',
    withdrawalIconInvalid: 'The operator.icon field must be an http(s) URL.',
    insufficientBalance: 'Not enough referral balance for this withdrawal.',
    withdrawalAlreadyDecided: 'This withdrawal has already been handled: the decision can no longer change.',
    withdrawalNotFound: 'Withdrawal not found.',
    adminWithdrawalList: 'Withdrawal requests.',
    withdrawalApproved: 'Withdrawal approved.',
    withdrawalRejected: 'Withdrawal rejected and refunded.',
    invalidPhoneFilter: 'The phone field must be a number in the international format (e.g. +237670000000).',
    profile: 'Your profile.',
    profileUpdated: 'Profile updated.',
    profileNothingToChange: 'Give at least one field to change: name, username or locale.',
    profileNameBlank: 'The name field must contain at least 2 characters other than spaces.',
    usernameFormat:
      'The username field must contain 3 to 30 characters among lowercase letters, digits, “_” and “.”.',
    usernameTaken: 'This username is already taken.',
    avatarUpdated: 'Avatar updated.',
    avatarRequired: 'The avatar field is required: send a JPEG, PNG or WebP image.',
    avatarType: 'The avatar field must be a JPEG, PNG or WebP image.',
    avatarUnreadable: 'The image sent is unreadable or incomplete.',
    avatarTooManyPixels: 'The image sent is too large in dimensions.',
    uploadTooLarge: 'The file sent is too large.',
    uploadTooManyParts: 'The form contains too many files or fields.',
    ticketCreated: 'Your request has been sent to support.',
    ticketList: 'Your support requests.',
    ticketDetail: 'Support request details.',
    ticketReplied: 'Reply sent.',
    ticketClosed: 'Request closed.',
    ticketNotFound: 'Support request not found.',
    ticketForbidden: 'Access denied: this support request is not yours.',
    ticketIsClosed: 'This request is closed: it no longer accepts replies.',
    ticketTooManyOpen: 'You have too many open requests. Close one or wait for support’s reply.',
    ticketTooManyReplies: 'This request has reached the maximum number of messages: open a new one.',
    ticketAttachmentType: 'The attachment field must be a JPEG, PNG or WebP image, or a PDF document.',
    ticketNoAttachment: 'This request has no attachment.',
    adminTicketList: 'Support requests.',
    adminUserList: 'Users.',
    adminUserDetail: 'User details.',
    adminUserOperations: 'User’s operations.',
    adminUserPronostics: 'User’s predictions.',
    userNotFound: 'User not found.',
    userCreditsAdjusted: 'Credit balance adjusted.',
    userBlocked: 'User blocked.',
    userUnblocked: 'User unblocked.',
    userRoleChanged: 'Role changed.',
    cannotBlockSelf: 'You cannot block your own account.',
    cannotChangeOwnRole: 'You cannot change your own role.',
    adjustAmountZero: 'The amount field must be a non-zero integer.',
    adminPronosticTypes: 'Prediction types (active and inactive).',
    pronosticTypeCreated: 'Prediction type created.',
    pronosticTypeUpdated: 'Prediction type updated.',
    pronosticTypeNotFound: 'Prediction type not found.',
    pronosticTypeNothingToChange:
      'Give at least one field to change: name, description, difficulty or is_active.',
    pronosticTypeUnknownSlug: 'The slug field must name a market the analysis engine can handle.',
    pronosticTypeExists: 'A prediction type already exists for this market.',
    adminStats: 'Statistics for today and the last 30 days.',
    withdrawalResolved: 'Withdrawal closed by hand.',
    withdrawalProviderRead: 'Transfer just read from the provider.',
    withdrawalNotEscalated:
      'Only a pending withdrawal whose transfer was escalated to an administrator can be closed by hand.',
    multipartMalformed:
      'The form sent is unreadable (malformed multipart/form-data: missing or incomplete boundary).',
    adminOwnCredits: 'You cannot adjust your own credit balance: another administrator must do it.',
    withdrawalOwnDecision: 'You cannot decide on your own withdrawal: another administrator must do it.',
    withdrawalFailureUnconfirmed:
      'The provider does not confirm this transfer failed: read it again later, or confirm the failure with override and a reason.',
    adminFlags: 'Flags (open first).',
    deletedAccountName: 'Deleted account',
    accountDeleted:
      'Your account has been deleted and your personal data erased. Only your payments and withdrawals are kept, with the number that paid or received, for 10 years (accounting obligation); that number is then erased.',
    accountDeleteCodeSent: 'Confirmation code sent. Enter it to delete your account for good.',
    accountDeletePendingPayment:
      'A payment is in progress on your account: wait for its result before deleting your account.',
    accountDeletePendingWithdrawal:
      'A withdrawal is in progress on your account: wait for its result before deleting your account.',
    accountDeleteEscalatedPayout:
      'A withdrawal transfer is being reviewed by our team: wait until it is closed before deleting your account.',
    accountDeleteLastAdmin:
      'You are the last administrator: appoint another administrator before deleting your account.',
    noAdminLeft: 'This change would leave the service without an active administrator.',
    accountDeleted409: 'This account has been deleted: it can no longer be changed.',
    accountExportTooSoon: 'You already exported your data less than an hour ago. Try again later.',
    flagNotFound: 'Flag not found.',
    flagResolved: 'Flag resolved.',
    flagAlreadyResolved: 'This flag is already resolved.',
    flagCreditNotAllowed:
      'Crediting is only possible for a payment flagged as succeeding after its failure (late_complete).',
    flagCreditAmountMismatch:
      'This payment failed because the amount paid did not match the pack (amount_mismatch): it cannot be credited this way.',
    flagCreditCurrencyMismatch:
      'This payment failed because the currency paid did not match the pack (currency_mismatch): it cannot be credited this way.',
    webpushKey: 'Web push public key (VAPID).',
    webpushOff: 'Web push notifications are not enabled on this service.',
    webpushSubscriptionMalformed:
      'The token field must be the browser’s push subscription as JSON: {"endpoint", "keys": {"p256dh", "auth"}}.',
    webpushEndpointInvalid: 'The token.endpoint field must be an https URL.',
    webpushHostRefused: 'This browser’s push service is not supported.',
    otpChallengeRequired: 'Your device must pass a check before the code is sent: it happens automatically.',
    otpProofInvalid: 'The check of your device failed or expired. Ask for the code again.',
    otpNetworkBusy: 'Too many new sign-ups from your network right now. Try again later.',
    approvalRequested: 'Request recorded: a second administrator must confirm it before it takes effect.',
    approvalConfirmed: 'Approval confirmed: the action was carried out.',
    approvalRejected: 'Approval rejected: the action was not carried out.',
    approvalList: 'Approvals (four eyes).',
    approvalNotFound: 'Approval not found.',
    approvalOwnDecision: 'You asked for this action: another administrator must confirm or reject it.',
    approvalAlreadyDecided: 'This approval has already been decided: the decision can no longer change.',
    approvalPending:
      'An approval is already pending for this action: another administrator must confirm or reject it.',
    flagOwnResolution:
      'You cannot resolve a flag about your own payment or withdrawal: another administrator must do it.',
    consoleNotBuilt: 'The admin console is not built: run `npm run build` (or `npm start`, which builds it).',
    webappNotBuilt: 'The web app is not built: run `npm run build` (or `npm start`, which builds it).',
    fileNotFound: 'File not found.',
  },
  adminTexts: {
    adjustBelowZero: (balance) =>
      `The credit balance (${number.format(balance)}) cannot go below zero: remove at most ${counted(balance, 'credit', 'credits')}.`,
  },
  validationMessages: {
    required: (field) => `The ${field} field is required.`,
    type: (field, type) => `The ${field} field must be ${typeNames[type] ?? `of type ${type}`}.`,
    minLength: (field, limit) =>
      `The ${field} field must contain at least ${counted(limit, 'character', 'characters')}.`,
    maxLength: (field, limit) =>
      `The ${field} field must not exceed ${counted(limit, 'character', 'characters')}.`,
    minimum: (field, limit) => `The ${field} field must be greater than or equal to ${limit}.`,
    maximum: (field, limit) => `The ${field} field must be less than or equal to ${limit}.`,
    enum: (field, values) => `The ${field} field must be one of: ${values.map(String).join(', ')}.`,
    format: (field) => `The format of the ${field} field is invalid.`,
    pattern: (field) => `The format of the ${field} field is invalid.`,
    additionalProperties: (field) => `The ${field} field is not allowed.`,
    maxProperties: (field) => `The ${field} field contains too many keys.`,
    maxItems: (field, limit) =>
      `The ${field} field must not contain more than ${counted(limit, 'item', 'items')}.`,
    invalid: (field) => `The ${field} field is invalid.`,
    unstorableText: (field) =>
      `The ${field} field contains an unsupported character (a null character or an incomplete Unicode character).`,
    unstorableKey: (field) =>
      `The name of the ${field} field contains an unsupported character (a null character or an incomplete Unicode character).`,
  },
  otpTexts: {
    code: (code, ttlSeconds) => `Your verification code is ${code}. It expires in ${duration(ttlSeconds)}.`,
  },
  accountTexts: {
    balanceRemains: (balance) =>
      `${number.format(balance)} XAF remain on your referral balance. Withdraw them before deleting your account, or confirm the deletion with forfeit_balance: true to give them up for good.`,
    forfeit: (balance) => `Balance of ${number.format(balance)} XAF given up when the account was deleted`,
    welcomeBonus: 'Welcome credits',
  },
  paymentTexts: {
    description: (credits) => `Purchase of ${counted(credits, 'credit', 'credits')}`,
    credit: (credits) => `Pack purchase: ${counted(credits, 'credit', 'credits')}`,
    lateCredit: (credits) =>
      `Pack purchase: ${counted(credits, 'credit', 'credits')} (payment confirmed late)`,
  },
  withdrawalTexts: {
    waiting: 'Your withdrawal request is awaiting approval.',
    paying: 'Withdrawal approved: the transfer to your mobile money account is in progress.',
    paid: 'Withdrawal done: the amount has been sent to your mobile money account.',
    failed: 'The transfer failed. The amount has been credited back to your referral balance.',
    refused: 'The operator refused the transfer. The amount has been credited back to your referral balance.',
    expired:
      'The transfer expired without completing. The amount has been credited back to your referral balance.',
    amountTooLow: (min) => `The minimum withdrawal amount is ${number.format(min)} XAF.`,
    debit: (amount) => `Withdrawal of ${number.format(amount)} XAF`,
    refund: (amount) => `Refund of the withdrawal of ${number.format(amount)} XAF`,
    payoutDescription: (id) => `Referral withdrawal no. ${id}`,
    commission: (percent) => `Referral commission (${percent}%) on a referral’s purchase`,
    amountTooHigh: (max) => `The maximum withdrawal amount is ${number.format(max)} XAF.`,
  },
  pushTexts: {
    'pronostic.succeeded': { title: 'Your analysis is ready', body: 'Open the app to see your prediction.' },
    'pronostic.cancelled': {
      title: 'Analysis cancelled',
      body: 'The analysis could not be completed. Your credits have been refunded.',
    },
    'payment.succeeded': {
      title: 'Payment confirmed',
      body: 'Your credits have been added to your account.',
    },
    'payment.failed': {
      title: 'Payment not completed',
      body: 'Your payment did not go through. You can try again from the app.',
    },
    'withdrawal.succeeded': {
      title: 'Withdrawal done',
      body: 'The amount has been sent to your mobile money account.',
    },
    'withdrawal.cancelled': {
      title: 'Withdrawal cancelled',
      body: 'The amount has been credited back to your referral balance.',
    },
    'credits.adjusted': {
      title: 'Credit balance changed',
      body: 'Your credit balance has been adjusted. Open the app for the details.',
    },
    'ticket.replied': { title: 'New reply from support', body: 'Support has replied to your request.' },
    'slip.settled': {
      title: 'Your slip is settled',
      body: 'The matches on your slip have been played. Open the app to see the result.',
    },
  },
  analysisTexts: {
    picks: {
      win: (team) => `${team} win`,
      draw: 'Draw',
      orDraw: (home) => `${home} or draw`,
      drawOr: (away) => `Draw or ${away}`,
      noDraw: (home, away) => `${home} or ${away} (no draw)`,
      bothScore: 'Both teams score',
      notBothScore: 'At least one team does not score',
      over: 'Over 2.5 goals',
      under: 'Under 2.5 goals',
      exactScore: (home, score, away) => `Exact score: ${home} ${score} ${away}`,
    },
    unnamedTeams: { home: 'Home team', away: 'Away team' },
    listSeparator: '; ',
    and: ' and ',
    openings: {
      homeClear: [
        (home, away) => `${home} are clear favourites at home against ${away}.`,
        (home, away) =>
          `On paper, ${home} dominate this match against ${away}, with their crowd behind them.`,
        (home, away) => `${home} host ${away} with a clear advantage according to the model.`,
      ],
      awayFavourite: [
        (home, away) => `${away} are favourites despite the trip to ${home}.`,
        (home, away) => `Even away from home, ${away} have the model’s favour against ${home}.`,
      ],
      even: [
        (home, away) => `A very open game between ${home} and ${away}: neither side really stands out.`,
        (home, away) => `${home} and ${away} are closely matched according to the model.`,
        (home, away) => `A balanced match ahead between ${home} and ${away}.`,
      ],
      homeEdge: [
        (home, away) => `${home} have a slight edge over ${away}, helped by home ground.`,
        (home, away) => `A moderate advantage for ${home}, who host ${away}.`,
      ],
      awayEdge: [
        (home, away) => `${away} start with a slight edge over ${home}, despite the trip.`,
        (home, away) => `The model leans slightly towards ${away}, visiting ${home}.`,
      ],
    },
    traits: {
      attackStrong: 'one of the most productive attacks in the league',
      attackWeak: 'an attack that struggles to score',
      defenceStrong: 'a very solid defence',
      defenceWeak: 'a defence that concedes a lot',
    },
    strengths: (team, traits) => `${team} has ${traits}`,
    stakesOneSided: (dead, live) =>
      `End of season: ${dead} has little left to play for in the table, unlike ${live}; the model takes it into account.`,
    stakesNone: 'End of season with nothing real at stake in the table for either side.',
    expectedGoals: [
      (home, homeTeam, away, awayTeam) =>
        `Expected goals: ${decimal(home)} for ${homeTeam}, ${decimal(away)} for ${awayTeam}.`,
      (home, homeTeam, away, awayTeam) =>
        `The model expects about ${decimal(home)} ${decimal(home) === '1.0' ? 'goal' : 'goals'} for ${homeTeam} and ${decimal(away)} for ${awayTeam}.`,
    ],
    /** The engine records French letters (V win, N draw, D defeat): W, D, L in English. */
    formLetters: (letters) =>
      `${letters}`.replace(/[VND]/g, (letter) => (letter === 'V' ? 'W' : letter === 'N' ? 'D' : 'L')),
    wins: (count) => times(count, 'win', 'wins'),
    draws: (count) => times(count, 'draw', 'draws'),
    losses: (count) => times(count, 'defeat', 'defeats'),
    scored: (goals) => `${times(goals, 'goal', 'goals')} scored`,
    conceded: (goals) => `${goals} conceded`,
    form: (team, letters, results, scored, conceded) =>
      `${team} (${letters}: ${results}, ${scored}, ${conceded})`,
    lastFive: (forms) => `Over the last five matches: ${forms}.`,
    certainty: {
      strong: 'a strong trend, though not a certainty',
      clear: 'a clear trend',
      moderate: 'a moderate trend',
      fragile: 'a fragile indication: the uncertainty remains large',
    },
    markets: {
      bttsYes: (chance, sure) =>
        `Both attacks should find the net: an estimated ${percent(chance)} chance that each team scores, ${sure}.`,
      bttsNo: (chance, sure) =>
        `At least one of the two teams could fail to score: ${percent(chance)} according to the model, ${sure}.`,
      over: (total, chance, sure) =>
        `The expected total (${decimal(total)} goals) points to a match with three goals or more: ${percent(chance)}, ${sure}.`,
      under: (total, chance, sure) =>
        `With ${decimal(total)} goals expected in all, a match with two goals or fewer is the likeliest scenario: ${percent(chance)}, ${sure}.`,
      scoreChance: (score, chance) => `${score} (${percent(chance)})`,
      exactScore: (score, chance, others) =>
        `The likeliest score is ${score} (${percent(chance)}), followed by ${others}. An exact score remains very uncertain: even the likeliest rarely happens.`,
      doubleChance: (label, chance, sure) =>
        `Double chance “${label}”: estimated probability ${percent(chance)}, ${sure}.`,
      ourReading: (label, chance, sure) => `Our reading: ${label} (${percent(chance)}), ${sure}.`,
      likeliest: (label, chance, sure) => `Likeliest outcome: ${label} (${percent(chance)}), ${sure}.`,
      aDraw: 'a draw',
      overLean: 'over 2.5 goals',
      underLean: 'under 2.5 goals',
      bothScoreLean: 'both teams scoring',
      oneBlankLean: 'at least one team failing to score',
      fullAnalysis: (home, draw, away, goals, goalsChance, btts, bttsChance, top) =>
        `1X2 split: ${percent(home)} / ${percent(draw)} / ${percent(away)}. On goals, the model leans towards ${goals} (${percent(goalsChance)}) and ${btts} (${percent(bttsChance)})${top ? `; likeliest score: ${top}` : ''}.`,
    },
    months: [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ],
    longDate: (date, month, year) => `${date} ${month} ${year}`,
    caveats: {
      thisLeague: 'this league',
      staleSince: (league, day) =>
        `Note: our latest results for ${league} date from ${day}. The teams may have changed a lot since; this estimate rests on old data and should be read with great caution.`,
      staleNothing: (league) =>
        `Note: we have no recent result for ${league}. This estimate rests on general benchmarks and should be read with great caution.`,
      uncovered:
        'This league is not covered by our data: the estimate rests on general benchmarks (home advantage included) and should be read with caution.',
      bothUnknown:
        'Neither team is in our data: the model gives them the typical level of a promoted side, so reliability is limited.',
      oneUnknown: (team) =>
        `${team} is not in our data: the model gives them the typical level of a promoted side, so reliability is limited.`,
      lowData: 'Few recent matches are available for these teams: the estimate stays cautious.',
      historyShort: (league: string) =>
        `Our data on ${league} is still thin (less than half a season of results over two years): the estimate rests mostly on general benchmarks and should be read with caution.`,
      resultsOnly: (league: string) =>
        `For ${league} we hold results only, without the bookmakers' odds that sharpen our estimates elsewhere: this one is less precise.`,
      cupsOnly: (team: string) =>
        `${team} plays in a league our data does not cover: it is rated from its European cup results alone, starting from a cautious level, so this estimate is less reliable.`,
      firstLeg: (home, away, homeGoals, awayGoals, shifted) => {
        const lead = homeGoals - awayGoals;
        const behind = lead > 0 ? away : home;
        const margin = Math.abs(lead);
        const situation =
          lead === 0
            ? 'The tie is level: the winner of this second leg goes through, a draw leads to extra time.'
            : `${behind} must win by ${margin + 1} goals to go through; a ${margin}-goal win leads to extra time.`;
        const model = shifted
          ? 'The model reads that score: it moved both teams’ levels, and it expects a more open match when a side must come back.'
          : 'The model reads that score in both teams’ levels, without shifting its probabilities for the margin to make up: the figures are for this match alone, not for qualification.';
        return `First leg: ${away} ${awayGoals}-${homeGoals} ${home}. ${situation} ${model}`;
      },
    },
    closings: [
      'Football keeps its share of the unexpected: these figures are probabilities, not promises.',
      'Read this as an estimate: a match can always defy the probabilities.',
      'These probabilities shed light on the match without writing its outcome.',
    ],
  },
  pages: {
    languageSwitch: 'Language',
    trackRecord: {
      title: 'Track record of our predictions',
      intro: `Every analysis sold is settled on the final score, with no exception and no selection.
Cancelled analyses (match not played or not found) are counted apart and
do not count towards the hit rate.`,
      loading: 'Loading…',
      overall: 'Overall',
      byType: 'By prediction type',
      byLeague: 'By league',
      calibration: 'Calibration: our analyses and the bookmakers',
      calibrationLegend: 'Legend of the calibration chart',
      legendOurs: 'Our analyses, by stated confidence (size: number of analyses)',
      legendMarket: 'The bookmakers’ favourite in the same matches, by probability',
      legendDiagonal: 'Perfect calibration',
      calibrationNote: `An analysis stated at 60% should win six times in ten: the closer the points
    follow the diagonal, the more the stated percentages can be trusted. The bookmakers are read on the
    matches where our analyses were settled: their favourite (closing 1X2 odds, margin removed) and the
    share of those favourites that won. Their odds are only published aggregated, in ranges of at
    least 30 matches.`,
      monthly: 'Month by month',
      howWeSettle: 'How we settle',
      settlement: [
        `<strong>What:</strong> every analysis delivered is settled, with no exception and no sorting, on the
  final score of the match (regular time including stoppage time, no extra time or penalties).`,
        `<strong>Where the results come from:</strong> football-data.co.uk’s results files, downloaded
  every day for the leagues we follow and stored as they are.`,
        `<strong>Which match:</strong> an analysis created from a scheduled match is settled on that
  match, even postponed, at its new date; the others on the match of the two teams named (in that
  order, home then away, and in the league given) played on the day stated or in the following
  7 days.`,
        `<strong>When:</strong> settlement runs every 10 minutes and right after the daily download of
  the results: an analysis is settled at the latest the day after the score is published.`,
        `<strong>What wins:</strong> 1X2 and full analysis: the result stated (home win, draw, away
  win); double chance: either of the two results covered; both teams to score: yes if each scores at
  least one goal, no otherwise; over/under 2.5 goals: 3 goals or more, or 2 at most (no refund
  possible); exact score: the score stated, or “other” when the final score is none of the scores
  assessed.`,
        `<strong>Cancelled:</strong> a match not found or not played 7 days after the date stated (30
  days after its kick-off for a postponed scheduled match) is cancelled: counted apart, never in the
  hit rate.`,
        `<strong>Once and for all:</strong> a settlement is never redone or withdrawn, and the analyses
  their buyer deleted are still counted.`,
      ],
      numberLocale: 'en-GB',
      percentSuffix: '%',
      windows: {
        last_30_days: '30 days',
        last_90_days: '90 days',
        last_365_days: '365 days',
        all_time: 'Since the start',
      },
      types: {
        '1x2': '1X2',
        'double-chance': 'Double chance',
        btts: 'Both teams to score',
        'over-under-2-5': 'Over/under 2.5 goals',
        'exact-score': 'Exact score',
        'full-analysis': 'Full analysis',
      },
      columns: {
        period: 'Period',
        month: 'Month',
        settled: 'Settled',
        won: 'Won',
        lost: 'Lost',
        void: 'Cancelled',
        hitRate: 'Hit rate',
        meanConfidence: 'Mean confidence',
        rps: 'RPS',
        baselineRps: 'Baseline RPS',
        brier: 'Brier',
        baselineBrier: 'Baseline Brier',
        favouriteProbability: 'Favourite’s probability',
        matches: 'Matches',
        meanProbability: 'Mean probability',
        favouriteHitRate: 'Favourite’s hit rate',
      },
      calibrationChart:
        'Calibration: stated probability and observed hit rate, our analyses and the bookmakers’ favourite',
      statedProbability: 'Stated probability',
      observedHitRate: 'Observed hit rate',
      marketTable: 'Bookmakers’ calibration, by range',
      monthlyChart: 'Month by month: settled analyses and hit rate',
      settledAxis: 'Settled analyses',
      hitRateAxis: 'Hit rate',
      monthTitle: (month: string, settled: string, hitRate: string) =>
        `${month}: settled ${settled}, hit rate ${hitRate}`,
      monthlyTable: 'Month by month, in figures',
      legendBars: 'Settled analyses (left scale)',
      legendRate: 'Hit rate (right scale)',
      overallTable: 'All analyses, by period',
      byPeriod: (name: string) => `${name}, by period`,
      unknownMatch: 'Match not found',
      emptyOverall:
        'No analysis is settled yet. The figures will appear here after the first match played following an analysis sold, once its result is published.',
      emptyByType:
        'Each prediction type (1X2, double chance, both teams to score, over/under 2.5 goals, exact score, full analysis) will have its own record here from its first settled analysis.',
      emptyByLeague:
        'Each league will have its own record here once an analysis of one of its matches is settled.',
      oursBin: (range: string, count: string, confidence: string, hitRate: string) =>
        `Our analyses ${range}: settled ${count}, mean confidence ${confidence}, hit rate ${hitRate}`,
      marketBin: (range: string, count: string, probability: string, hitRate: string) =>
        `Bookmakers’ favourite ${range}: matches ${count}, mean probability ${probability}, hit rate ${hitRate}`,
      emptyCalibration: 'Our points will appear with the first analyses won or lost.',
      emptyMarket: (minBin: string, matches: string) =>
        `The bookmakers will appear once at least ${minBin} settled matches have odds recorded (${matches} so far).`,
      emptyMonthly: 'Each month will appear here from its first settled analysis.',
      baseline: (baseline: string) => `Naive baseline of the RPS and Brier score: ${baseline}.`,
      updated: (date: string) => `Updated ${date}.`,
      unavailable: 'The track record is unavailable for now.',
    },
    accountDelete: {
      title: 'Delete my account',
      intro: 'You can delete your account at any time, from the app or from this page.',
      fromApp: 'From the app',
      appSteps: [
        'Open the app and sign in.',
        'Go to <strong>Profile</strong>, then <strong>Delete my account</strong>.',
        'Enter the confirmation code received by SMS: the account is deleted at once.',
      ],
      whatHappens: 'What is deleted, what is kept',
      outcomes: [
        'Deleted: your phone number (everywhere, the audit log included, except in the financial records below), your name, your nickname, your photo, your support requests and their attachments, your sessions (you are signed out everywhere).',
        'Anonymised: your predictions, kept with no link to you for the public track record.',
        'Kept for 10 years with the phone number that paid or received the money: payments, withdrawals, payouts and balance movements. This is the retention period for accounting records set by OHADA accounting law; after it, the number is erased from them automatically.',
        'Your number is released: signing up again with it creates a new, empty account.',
        'Deletion is refused while a payment or a withdrawal is in progress. If a referral balance remains, it is shown to you and you must confirm you give it up.',
      ],
      exportNote:
        'Before deleting your account, you can download your data from the app (Profile, then Export my data).',
      fromPage: 'From this page',
      country: 'Country',
      countries: {
        CM: 'Cameroon (+237)',
        CI: 'Côte d’Ivoire (+225)',
        SN: 'Senegal (+221)',
        GA: 'Gabon (+241)',
        FR: 'France (+33)',
      },
      phone: 'Phone number',
      sendSignInCode: 'Get a sign-in code',
      signInCode: 'Sign-in code received by SMS',
      verifyCode: 'Check the code',
      deletionCode: 'Deletion confirmation code (second SMS)',
      forfeit: 'I give up my remaining balance for good.',
      deleteForGood: 'Delete my account for good',
      genericError: 'Something went wrong. Please try again.',
      retryIn: (text: string, seconds: string) => `${text} (try again in ${seconds} s)`,
      unreachable: 'The service cannot be reached. Try again in a moment.',
      signInCodeSent: (phone: string) => `A sign-in code has been sent to ${phone}.`,
      start: 'Enter your account’s phone number to start.',
    },
  },
  playTexts: {
    ageRequired:
      'Enter your date of birth before buying a pack: in the app, Profile, then “Responsible play”.',
    underAge: (minimum: number) =>
      `Purchases are for people aged ${minimum} or over. The analyses you already bought stay readable.`,
    limitReached:
      'This purchase would go past a spending limit you set: you can buy again from the date given (data.resets_at). Manage your limits in Profile, then “Responsible play”.',
    selfExcluded:
      'You chose a break from play: purchases, new analyses and slips are blocked until it ends (data.until). Your history, the export and deleting your account stay available.',
    birthDateInvalid: 'The date of birth must be a past date (YYYY-MM-DD), at most 120 years ago.',
    birthDateLocked: 'Your date of birth is already recorded: to correct it, write to support from the app.',
    birthDateChanged: 'Date of birth changed.',
    limitsNothing: 'Give at least one limit: daily, weekly or monthly.',
    limits: 'Your spending limits.',
    limitsSaved: 'Limits saved: a lower one applies at once, a higher one or a removal in 72 hours.',
    exclusionCodeSent: 'A code confirming your break from play has been sent to you.',
    excluded: 'Break from play confirmed: it cannot be shortened.',
    adultsOnly: '18+',
    link: 'Responsible play',
    page: {
      title: 'Responsible play',
      intro:
        'Our analyses are estimates of probabilities, never certainties: no win is guaranteed, and a bet can always be lost.',
      adults: 'For adults only',
      adultsText:
        'Betting and purchases are forbidden to minors. You are asked for your date of birth before your first purchase.',
      risks: 'The risks',
      riskItems: [
        'Only stake what you can afford to lose.',
        'Do not chase your losses.',
        'Play is not a source of income.',
        'If play worries you or those close to you, take a break.',
      ],
      tools: 'What we offer',
      toolItems: [
        '<strong>Spending limits</strong> per day, per week and per month: a lower one applies at once, a higher one or a removal after 72 hours.',
        '<strong>A break from play</strong> of 1 day to 5 years, confirmed with a code: no purchase, no new analysis, no slip until it ends. It cannot be shortened, not even by deleting your account.',
        'In the app: Profile, then “Responsible play”.',
      ],
      help: 'Finding help',
      helpItems: [
        'Talk to a doctor or a health centre near you.',
        'Gamblers Anonymous (self-help groups, online): <strong>gamblersanonymous.org</strong>',
        'GamCare (online help, in English): <strong>gamcare.org.uk</strong>',
        'Our support, from the app (Profile, then Support), can start a break with you.',
      ],
    },
  },
  // Slips (issue 53): the answers, the refusals on a leg, and the verdict in words.
  slipTexts: {
    checked: 'Slip checked.',
    saved: 'Slip saved.',
    list: 'Your slips.',
    detail: 'Slip details.',
    deleted: 'Slip deleted.',
    summary: 'Your settled slips at a glance.',
    notFound: 'Slip not found.',
    notYours: 'Choose one of your own successful analyses.',
    marketNotOffered: 'This analysis does not cover that market.',
    unknownPick: 'That pick does not exist for this market.',
    badOdds: 'Odds must be a decimal number from 1.01 to 1000, with at most two decimals.',
    sameFixture:
      'This match is already on the slip with another analysis: add this market from the same analysis.',
    noMatrix:
      'This analysis predates slips: only one bet on this match can be drawn from it. Run a new analysis to combine several.',
    duplicateLeg: 'This pick is already on the slip.',
    cannotBothWin: 'These two picks on the same match cannot both win.',
    trackRecordMoney: {
      title: 'In money: a flat 1,000 XAF stake on each analysis',
      intro:
        'Every settled analysis whose pick had stored pre-match odds counts as a 1,000 XAF bet at the market’s average odds (Pinnacle’s where missing), beside the same bet on the bookmakers’ favourite. Every settled analysis since the first counts; the interval is 95 %.',
      chart: 'Return by month, with its 95 % interval',
      legendOurs: 'Our analyses',
      legendFavourite: 'The bookmakers’ favourite',
      table: 'Return by market',
      market: 'Market',
      bets: 'Bets',
      staked: 'Staked (XAF)',
      returned: 'Returned (XAF)',
      roi: 'Return (interval)',
      favouriteRoi: 'Favourite: return (interval)',
      empty: 'No settled analysis with stored odds yet.',
      markets: {
        '1x2': '1X2',
        double_chance: 'Double chance',
        btts: 'Both teams to score',
        over_under_2_5: 'Over/under 2.5 goals',
        exact_score: 'Exact score',
      },
    },
    verdict: {
      value: (expected: number, stake: number) =>
        `On average this slip returns ${xaf(expected)} for ${xaf(stake)} staked: the odds are better than the probability.`,
      fair: (expected: number, stake: number) =>
        `On average this slip returns ${xaf(expected)} for ${xaf(stake)} staked: the odds are fair, with no edge.`,
      negative: (expected: number, stake: number) =>
        `On average this slip returns ${xaf(expected)} for ${xaf(stake)} staked: the odds are too low for the probability.`,
    },
  },
};
