// The French catalogue: every text the service shows a person, as clients have always seen it (byte
// for byte: a change here is a change clients see). Code refers to keys through src/lib/messages.ts.
import type { UserEventType } from '../allowed-values.js';

const messages = {
  ok: 'OK.',
  unauthenticated: 'Non authentifié.',
  forbidden: 'Accès refusé.',
  adminOnly: 'Accès réservé aux administrateurs.',
  notFound: 'Ressource introuvable.',
  routeNotFound: 'Cette route n’existe pas.',
  methodNotAllowed: 'Méthode non autorisée pour cette route.',
  payloadTooLarge: 'Le corps de la requête est trop volumineux.',
  unsupportedMediaType: 'Type de contenu non pris en charge.',
  badRequest: 'Requête invalide.',
  validationFailed: 'Les données envoyées sont invalides.',
  invalidJson: 'Le corps de la requête n’est pas un JSON valide.',
  emptyBody: 'Le corps de la requête est vide.',
  tooManyRequests: 'Trop de requêtes. Réessayez plus tard.',
  tooManyStreams: 'Trop de flux d’événements ouverts. Fermez-en un ou réessayez plus tard.',
  lastEventIdInvalid: 'Last-Event-ID doit être un entier positif ou nul.',
  serverError: 'Une erreur interne est survenue. Réessayez plus tard.',
  otpSent: 'Un code de vérification vous a été envoyé.',
  otpSendFailed: 'Le code n’a pas pu être envoyé. Réessayez dans quelques instants.',
  otpInvalid: 'Code invalide ou expiré.',
  otpVerified: 'Connexion réussie.',
  otpResendCooldown: 'Veuillez patienter avant de demander un nouveau code.',
  otpTooManyCodes: 'Trop de codes demandés. Réessayez plus tard.',
  phoneInvalid: 'Le numéro de téléphone est invalide : utilisez le format international (ex. +237690000000).',
  phoneNotForCountry: 'Le numéro de téléphone n’est pas valide pour ce pays.',
  countryInvalid: 'Le champ country doit être un code pays à deux lettres (ex. CM).',
  otpCodeFormat: 'Le code doit contenir 6 chiffres.',
  requestInFlight: 'Une requête identique est déjà en cours de traitement.',
  serviceUnavailable: 'Service momentanément indisponible.',
  healthOk: 'Le service fonctionne.',
  healthDegraded: 'Le service est dégradé : la base de données ne répond pas.',
  loggedOut: 'Vous êtes déconnecté.',
  idempotencyKeyInvalid: 'L’en-tête Idempotency-Key doit contenir de 1 à 255 caractères imprimables.',
  idempotencyKeyReused: 'Cette clé Idempotency-Key a déjà été utilisée pour une autre requête.',
  pronosticTypes: 'Types de pronostics.',
  pronosticCreated: 'Votre pronostic est en cours d’analyse.',
  pronosticList: 'Vos pronostics.',
  trackRecord: 'Bilan de toutes nos analyses réglées.',
  trackRecordOwn: 'Bilan de vos analyses réglées.',
  pronosticDetail: 'Détail du pronostic.',
  pronosticDeleted: 'Pronostic supprimé.',
  pronosticNotFound: 'Pronostic introuvable.',
  fixtures: 'Matchs à venir.',
  adminFixtures: 'Matchs à venir et leurs pronostics.',
  competitions: 'Compétitions.',
  adminCompetitionHealth: 'Santé de la synchronisation de chaque compétition.',
  fixture: 'Match.',
  fixtureNotFound: 'Match introuvable.',
  fixtureUnknown: 'Ce match n’existe pas.',
  fixtureKickedOff: 'Ce match a déjà commencé : choisissez un match à venir.',
  fixtureNotScheduled: 'Ce match n’est pas programmé (joué ou reporté).',
  fixtureBadDate: 'Le champ doit être une date ISO 8601 (AAAA-MM-JJ ou date et heure).',
  fixtureBadRange: 'La fin de la période précède son début.',
  adminTeams: 'Équipes connues.',
  fixtureCreated: 'Match ajouté.',
  fixtureUpdated: 'Match mis à jour.',
  fixturesImported: 'Import des matchs terminé.',
  fixtureExists: 'Ce match existe déjà (mêmes équipes, même compétition, même saison).',
  fixtureUnknownCompetition:
    'Compétition inconnue : donnez le code d’une compétition du catalogue (E0, UCL, INT-AFCON…).',
  fixtureUnknownTeam: 'Équipe inconnue : choisissez une équipe connue (ou importez un fichier qui la nomme).',
  fixtureSameTeams: 'Une équipe ne joue pas contre elle-même.',
  fixtureBadKickoff:
    'Le champ doit être une date et heure ISO 8601 (AAAA-MM-JJTHH:MM, fuseau facultatif, UTC par défaut).',
  fixtureKickoffPast: 'Le coup d’envoi doit être à venir (et dans les deux ans).',
  fixtureRegularScoreNotKnockout:
    'Le score après 90 minutes ne se saisit que pour un match à élimination directe.',
  fixturesImportFileRequired: 'Le fichier est obligatoire (champ file).',
  fixturesImportUnreadable:
    'Fichier illisible : ni les colonnes du fichier des résultats internationaux, ni un fichier Football.TXT.',
  fixturesImportTooManyRows: 'Trop de matchs dans le fichier.',
  teamsDetailsOrFixture: 'Le champ teams_details est obligatoire sans fixture_id.',
  pronosticForbidden: 'Accès refusé : ce pronostic ne vous appartient pas.',
  insufficientCredits: 'Crédits insuffisants pour ce type de pronostic.',
  unknownPronosticType: 'Le type de pronostic sélectionné est invalide ou inactif.',
  sameTeams: 'Les équipes à domicile et à l’extérieur doivent être différentes.',
  teamsDetailsTooLarge: 'Le champ teams_details ne doit pas dépasser 2048 octets.',
  invalidMatchDate: 'Le champ teams_details.date doit être une date ISO 8601 (AAAA-MM-JJ ou date et heure).',
  blankField: 'Le champ ne doit pas être vide.',
  pronosticDebitDescription: 'Pronostic',
  pronosticRefundDescription: 'Remboursement du pronostic',
  analysisFailed: 'L’analyse n’a pas pu être réalisée. Vos crédits ont été remboursés.',
  analysisQueueFull:
    'Les analyses sont très demandées en ce moment. Réessayez dans quelques secondes : aucun crédit n’a été débité.',
  analysisTimedOut: 'L’analyse a pris trop de temps. Vos crédits ont été remboursés.',
  analysisUnsupportedType:
    'Ce type de pronostic n’est pas encore pris en charge par notre moteur d’analyse. Vos crédits ont été remboursés.',
  phoneNotMobile: 'Le numéro de téléphone doit être un numéro mobile.',
  otpBudgetExhausted: 'L’envoi de codes est momentanément limité. Réessayez plus tard.',
  auditList: 'Journal des actions des administrateurs.',
  eventHistory: 'Vos événements.',
  streamKeyIssued: 'Clé de flux créée : elle ouvre un flux, dans la minute.',
  adminEventHistory: 'Événements du back-office.',
  deviceRegistered: 'Appareil enregistré : il recevra vos notifications.',
  deviceList: 'Vos appareils enregistrés pour les notifications.',
  deviceForgotten: 'Appareil supprimé : il ne recevra plus de notifications.',
  deviceNotFound: 'Appareil introuvable.',
  packList: 'Packs de crédits disponibles.',
  adminPackList: 'Packs de crédits.',
  packCreated: 'Pack créé.',
  packUpdated: 'Pack modifié.',
  packActivated: 'Pack activé.',
  packDeactivated: 'Pack désactivé.',
  packNotFound: 'Pack introuvable.',
  packNothingToChange: 'Indiquez au moins un champ à modifier : name, credits ou price.',
  packNameBlank: 'Le champ name doit contenir au moins 2 caractères hors espaces.',
  paymentCreated: 'Paiement initié : confirmez-le sur votre téléphone.',
  paymentDetail: 'Détail du paiement.',
  paymentNotFound: 'Paiement introuvable.',
  paymentForbidden: 'Accès refusé : ce paiement ne vous appartient pas.',
  paymentPhoneInvalid:
    'Le numéro de paiement doit être un numéro mobile camerounais valide (ex. +237670000000).',
  paymentTooManyPending: 'Vous avez trop de paiements en attente. Finalisez-les ou réessayez plus tard.',
  unknownPack: 'Le pack sélectionné est invalide ou inactif.',
  webhookReceived: 'Notification reçue.',
  walletOperations: 'Historique de vos opérations.',
  walletLatestTransactions: 'Vos dernières transactions.',
  invalidFromDate: 'Le champ from doit être une date valide au format AAAA-MM-JJ.',
  invalidToDate: 'Le champ to doit être une date valide au format AAAA-MM-JJ.',
  fromAfterTo: 'La date de début (from) doit précéder ou égaler la date de fin (to).',
  dashboard: 'Votre tableau de bord.',
  affiliationCodeInvalid: 'Le code de parrainage doit contenir 8 lettres majuscules ou chiffres.',
  affiliationCodeUnknown: 'Ce code de parrainage n’existe pas ou n’est plus actif.',
  affiliationCodeOwn: 'Vous ne pouvez pas utiliser votre propre code de parrainage.',
  affiliationAlreadyApplied: 'Vous avez déjà un parrain : le code de parrainage ne s’applique qu’une fois.',
  affiliationCycle:
    'Ce code de parrainage est celui d’un de vos filleuls : le parrainage ne peut pas boucler.',
  affiliationApplied: 'Code de parrainage appliqué.',
  affiliationOverview: 'Votre portefeuille de parrainage.',
  affiliationGodchildren: 'Vos filleuls.',
  withdrawalList: 'Vos retraits.',
  withdrawalCreated: 'Votre demande de retrait a été enregistrée.',
  withdrawalPhoneInvalid:
    'Le numéro de retrait doit être un numéro mobile camerounais valide (ex. +237670000000).',
  withdrawalIconInvalid: 'Le champ operator.icon doit être une URL http(s).',
  insufficientBalance: 'Solde de parrainage insuffisant pour ce retrait.',
  withdrawalAlreadyDecided: 'Ce retrait a déjà été traité : la décision ne peut plus changer.',
  withdrawalNotFound: 'Retrait introuvable.',
  adminWithdrawalList: 'Demandes de retrait.',
  withdrawalApproved: 'Retrait approuvé.',
  withdrawalRejected: 'Retrait refusé et remboursé.',
  invalidPhoneFilter: 'Le champ phone doit être un numéro au format international (ex. +237670000000).',
  profile: 'Votre profil.',
  profileUpdated: 'Profil mis à jour.',
  profileNothingToChange: 'Indiquez au moins un champ à modifier : name, username ou locale.',
  profileNameBlank: 'Le champ name doit contenir au moins 2 caractères hors espaces.',
  usernameFormat:
    'Le champ username doit contenir de 3 à 30 caractères parmi les lettres minuscules, les chiffres, « _ » et « . ».',
  usernameTaken: 'Ce nom d’utilisateur est déjà pris.',
  avatarUpdated: 'Avatar mis à jour.',
  avatarRequired: 'Le champ avatar est obligatoire : envoyez une image JPEG, PNG ou WebP.',
  avatarType: 'Le champ avatar doit être une image JPEG, PNG ou WebP.',
  avatarUnreadable: 'L’image envoyée est illisible ou incomplète.',
  avatarTooManyPixels: 'L’image envoyée a des dimensions trop grandes.',
  uploadTooLarge: 'Le fichier envoyé est trop volumineux.',
  uploadTooManyParts: 'Le formulaire contient trop de fichiers ou de champs.',
  ticketCreated: 'Votre demande a été transmise au support.',
  ticketList: 'Vos demandes d’assistance.',
  ticketDetail: 'Détail de la demande d’assistance.',
  ticketReplied: 'Réponse envoyée.',
  ticketClosed: 'Demande clôturée.',
  ticketNotFound: 'Demande d’assistance introuvable.',
  ticketForbidden: 'Accès refusé : cette demande d’assistance ne vous appartient pas.',
  ticketIsClosed: 'Cette demande est clôturée : elle n’accepte plus de réponse.',
  ticketTooManyOpen:
    'Vous avez trop de demandes en cours. Clôturez-en une ou attendez la réponse du support.',
  ticketTooManyReplies: 'Cette demande a atteint le nombre maximal de messages : ouvrez-en une nouvelle.',
  ticketAttachmentType: 'Le champ attachment doit être une image JPEG, PNG ou WebP, ou un document PDF.',
  ticketNoAttachment: 'Cette demande n’a pas de pièce jointe.',
  adminTicketList: 'Demandes d’assistance.',
  adminUserList: 'Utilisateurs.',
  adminUserDetail: 'Détail de l’utilisateur.',
  adminUserOperations: 'Opérations de l’utilisateur.',
  adminUserPronostics: 'Pronostics de l’utilisateur.',
  userNotFound: 'Utilisateur introuvable.',
  userCreditsAdjusted: 'Solde de crédits ajusté.',
  userBlocked: 'Utilisateur bloqué.',
  userUnblocked: 'Utilisateur débloqué.',
  userRoleChanged: 'Rôle modifié.',
  cannotBlockSelf: 'Vous ne pouvez pas bloquer votre propre compte.',
  cannotChangeOwnRole: 'Vous ne pouvez pas modifier votre propre rôle.',
  adjustAmountZero: 'Le champ amount doit être un nombre entier non nul.',
  adminPronosticTypes: 'Types de pronostics (actifs et inactifs).',
  pronosticTypeCreated: 'Type de pronostic créé.',
  pronosticTypeUpdated: 'Type de pronostic modifié.',
  pronosticTypeNotFound: 'Type de pronostic introuvable.',
  pronosticTypeNothingToChange:
    'Indiquez au moins un champ à modifier : name, description, difficulty ou is_active.',
  pronosticTypeUnknownSlug: 'Le champ slug doit désigner un marché que le moteur d’analyse sait traiter.',
  pronosticTypeExists: 'Un type de pronostic existe déjà pour ce marché.',
  adminStats: 'Statistiques du jour et des 30 derniers jours.',
  withdrawalResolved: 'Retrait clôturé manuellement.',
  withdrawalProviderRead: 'Transfert lu chez le prestataire à l’instant.',
  withdrawalNotEscalated:
    'Seul un retrait en attente dont le transfert a été signalé à un administrateur peut être clôturé manuellement.',
  multipartMalformed:
    'Le formulaire envoyé est illisible (multipart/form-data mal formé : frontière absente ou incomplète).',
  adminOwnCredits:
    'Vous ne pouvez pas ajuster votre propre solde de crédits : un autre administrateur doit le faire.',
  withdrawalOwnDecision:
    'Vous ne pouvez pas décider de votre propre retrait : un autre administrateur doit le faire.',
  withdrawalFailureUnconfirmed:
    'Le prestataire ne confirme pas l’échec de ce transfert : relisez-le plus tard, ou confirmez l’échec avec override et un motif.',
  adminFlags: 'Signalements (ouverts en premier).',
  deletedAccountName: 'Compte supprimé',
  accountDeleted:
    'Votre compte a été supprimé et vos données personnelles effacées. Seuls vos paiements et retraits sont conservés, avec le numéro qui a payé ou reçu, pendant 10 ans (obligation comptable) ; ce numéro est ensuite effacé.',
  accountDeleteCodeSent:
    'Code de confirmation envoyé. Saisissez-le pour supprimer définitivement votre compte.',
  accountDeletePendingPayment:
    'Un paiement est en cours sur votre compte : attendez son résultat avant de supprimer votre compte.',
  accountDeletePendingWithdrawal:
    'Un retrait est en cours sur votre compte : attendez son résultat avant de supprimer votre compte.',
  accountDeleteEscalatedPayout:
    'Un transfert de retrait est en cours d’examen par notre équipe : attendez sa clôture avant de supprimer votre compte.',
  accountDeleteLastAdmin:
    'Vous êtes le dernier administrateur : nommez un autre administrateur avant de supprimer votre compte.',
  noAdminLeft: 'Cette modification laisserait le service sans administrateur actif.',
  accountDeleted409: 'Ce compte a été supprimé : il ne peut plus être modifié.',
  accountExportTooSoon: 'Vous avez déjà exporté vos données il y a moins d’une heure. Réessayez plus tard.',
  flagNotFound: 'Signalement introuvable.',
  flagResolved: 'Signalement résolu.',
  flagAlreadyResolved: 'Ce signalement est déjà résolu.',
  flagCreditNotAllowed:
    'Le crédit n’est possible que pour un paiement signalé comme réussi après son échec (late_complete).',
  flagCreditAmountMismatch:
    'Ce paiement a échoué parce que le montant payé ne correspondait pas au pack (amount_mismatch) : il ne peut pas être crédité ainsi.',
  flagCreditCurrencyMismatch:
    'Ce paiement a échoué parce que la devise payée ne correspondait pas au pack (currency_mismatch) : il ne peut pas être crédité ainsi.',
  webpushKey: 'Clé publique des notifications web (VAPID).',
  webpushOff: 'Les notifications web ne sont pas activées sur ce service.',
  webpushSubscriptionMalformed:
    'Le champ token doit être l’abonnement push du navigateur en JSON : {"endpoint", "keys": {"p256dh", "auth"}}.',
  webpushEndpointInvalid: 'Le champ token.endpoint doit être une URL https.',
  webpushHostRefused: 'Le service de notifications de ce navigateur n’est pas pris en charge.',
  otpChallengeRequired:
    'Une vérification de votre appareil est nécessaire avant l’envoi du code : elle se fait automatiquement.',
  otpProofInvalid: 'La vérification de votre appareil a échoué ou a expiré. Redemandez le code.',
  otpNetworkBusy: 'Trop de nouvelles inscriptions depuis votre réseau en ce moment. Réessayez plus tard.',
  approvalRequested:
    'Demande enregistrée : un second administrateur doit la confirmer avant qu’elle prenne effet.',
  approvalConfirmed: 'Approbation confirmée : l’action a été exécutée.',
  approvalRejected: 'Approbation refusée : l’action n’a pas été exécutée.',
  approvalList: 'Approbations (quatre yeux).',
  approvalNotFound: 'Approbation introuvable.',
  approvalOwnDecision:
    'Vous avez demandé cette action : un autre administrateur doit la confirmer ou la refuser.',
  approvalAlreadyDecided: 'Cette approbation a déjà été décidée : la décision ne peut plus changer.',
  approvalPending:
    'Une approbation est déjà en attente pour cette action : un autre administrateur doit la confirmer ou la refuser.',
  flagOwnResolution:
    'Vous ne pouvez pas résoudre un signalement sur votre propre paiement ou retrait : un autre administrateur doit le faire.',
  consoleNotBuilt:
    'Console d’administration non construite : lancez `npm run build` (ou `npm start`, qui la construit).',
  webappNotBuilt:
    'Application web non construite : lancez `npm run build` (ou `npm start`, qui la construit).',
  fileNotFound: 'Fichier introuvable.',
};

/** Texts of the back office's actions that carry a figure. */
const adminTexts = {
  adjustBelowZero: (balance: number) =>
    `Le solde de crédits (${balance}) ne peut pas devenir négatif : retirez au plus ${balance} crédits.`,
};

/** French messages for schema validation, by JSON-Schema keyword. */
const validationMessages = {
  required: (field: string) => `Le champ ${field} est obligatoire.`,
  type: (field: string, type: string) =>
    `Le champ ${field} doit être ${typeNames[type] ?? `de type ${type}`}.`,
  minLength: (field: string, limit: number) =>
    `Le champ ${field} doit contenir au moins ${limit} caractère${limit > 1 ? 's' : ''}.`,
  maxLength: (field: string, limit: number) =>
    `Le champ ${field} ne doit pas dépasser ${limit} caractère${limit > 1 ? 's' : ''}.`,
  minimum: (field: string, limit: number) => `Le champ ${field} doit être supérieur ou égal à ${limit}.`,
  maximum: (field: string, limit: number) => `Le champ ${field} doit être inférieur ou égal à ${limit}.`,
  enum: (field: string, values: readonly unknown[]) =>
    `Le champ ${field} doit valoir l’une des valeurs suivantes : ${values.map(String).join(', ')}.`,
  format: (field: string) => `Le format du champ ${field} est invalide.`,
  pattern: (field: string) => `Le format du champ ${field} est invalide.`,
  additionalProperties: (field: string) => `Le champ ${field} n’est pas autorisé.`,
  maxProperties: (field: string) => `Le champ ${field} contient trop de clés.`,
  maxItems: (field: string, limit: number) =>
    `Le champ ${field} ne doit pas contenir plus de ${limit} éléments.`,
  invalid: (field: string) => `Le champ ${field} est invalide.`,
  unstorableText: (field: string) =>
    `Le champ ${field} contient un caractère non pris en charge (caractère nul ou caractère Unicode incomplet).`,
  unstorableKey: (field: string) =>
    `Le nom du champ ${field} contient un caractère non pris en charge (caractère nul ou caractère Unicode incomplet).`,
};

const typeNames: Record<string, string> = {
  integer: 'un nombre entier',
  number: 'un nombre',
  string: 'une chaîne de caractères',
  boolean: 'un booléen',
  object: 'un objet',
  array: 'une liste',
  null: 'nul',
};

/** The sign-in code text: neutral French, no betting words (operators filter them). */
const otpTexts = {
  code: (code: string, ttlSeconds: number) =>
    `Votre code de vérification est ${code}. Il expire dans ${duration(ttlSeconds)}.`,
};

function duration(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds} secondes`;
  const minutes = seconds / 60;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** Texts of an account's deletion (issue 30). */
const accountTexts = {
  /** The 409 while a money balance remains and `forfeit_balance` is not true. */
  balanceRemains: (balance: number) =>
    `Il reste ${balance.toLocaleString('fr-FR').replace(/\s/g, ' ')} XAF sur votre solde de parrainage. Retirez-les avant de supprimer votre compte, ou confirmez la suppression avec forfeit_balance: true pour y renoncer définitivement.`,
  /** The ledger row that takes the forfeited balance. */
  forfeit: (balance: number) => `Solde de ${balance} XAF abandonné à la suppression du compte`,
  /** The ledger row of the welcome credits, at the account's creation. */
  welcomeBonus: 'Crédits de bienvenue',
};

/** Texts of a pack purchase: what the provider shows the payer, and the ledger row of the credit. */
const paymentTexts = {
  description: (credits: number) => `Achat de ${credits} crédits`,
  credit: (credits: number) => `Achat de pack : ${credits} crédits`,
  lateCredit: (credits: number) => `Achat de pack : ${credits} crédits (paiement confirmé en retard)`,
};

/** What a withdrawal tells its owner (its `message`) at each step, and its ledger rows. */
const withdrawalTexts = {
  waiting: 'Votre demande de retrait est en attente de validation.',
  paying: 'Retrait validé : le transfert vers votre compte mobile money est en cours.',
  paid: 'Retrait effectué : le montant a été envoyé sur votre compte mobile money.',
  failed: 'Le transfert a échoué. Le montant a été recrédité sur votre solde de parrainage.',
  refused:
    'Le transfert a été refusé par l’opérateur. Le montant a été recrédité sur votre solde de parrainage.',
  expired: 'Le transfert a expiré sans aboutir. Le montant a été recrédité sur votre solde de parrainage.',
  amountTooLow: (min: number) => `Le montant minimum de retrait est de ${min} XAF.`,
  debit: (amount: number) => `Retrait de ${amount} XAF`,
  refund: (amount: number) => `Remboursement du retrait de ${amount} XAF`,
  payoutDescription: (id: number) => `Retrait de parrainage n° ${id}`,
  commission: (percent: number) => `Commission de parrainage (${percent} %) sur l’achat d’un filleul`,
  amountTooHigh: (max: number) => `Le montant maximum d’un retrait est de ${max} XAF.`,
};

/**
 * What a push notification says for each event of a user's log. A lock screen shows it to whoever
 * holds the phone: no amount, no team, no reason; the app opens the event for the rest.
 */
const pushTexts: Record<UserEventType, { title: string; body: string }> = {
  'pronostic.succeeded': {
    title: 'Votre analyse est prête',
    body: 'Ouvrez l’application pour découvrir votre pronostic.',
  },
  'pronostic.cancelled': {
    title: 'Analyse annulée',
    body: 'L’analyse n’a pas pu être réalisée. Vos crédits ont été remboursés.',
  },
  'payment.succeeded': {
    title: 'Paiement confirmé',
    body: 'Vos crédits ont été ajoutés à votre compte.',
  },
  'payment.failed': {
    title: 'Paiement non abouti',
    body: 'Votre paiement n’a pas abouti. Vous pouvez réessayer depuis l’application.',
  },
  'withdrawal.succeeded': {
    title: 'Retrait effectué',
    body: 'Le montant a été envoyé sur votre compte mobile money.',
  },
  'withdrawal.cancelled': {
    title: 'Retrait annulé',
    body: 'Le montant a été recrédité sur votre solde de parrainage.',
  },
  'credits.adjusted': {
    title: 'Solde de crédits modifié',
    body: 'Votre solde de crédits a été ajusté. Ouvrez l’application pour le détail.',
  },
  'ticket.replied': {
    title: 'Nouvelle réponse du support',
    body: 'Le support a répondu à votre demande d’assistance.',
  },
  'slip.settled': {
    title: 'Votre ticket est réglé',
    body: 'Les matchs de votre ticket sont joués. Ouvrez l’application pour voir le résultat.',
  },
};

// One formatter for the process: `toLocaleString('fr-FR')` built one per call (issue 57).
const frenchNumber = new Intl.NumberFormat('fr-FR');
const xaf = (amount: number) => `${frenchNumber.format(amount).replace(/\s/g, ' ')} XAF`;

/** Slips (issue 53): the answers, the refusals on a leg, and the verdict in words. */
const slipTexts = {
  checked: 'Ticket vérifié.',
  saved: 'Ticket enregistré.',
  list: 'Vos tickets.',
  detail: 'Détail du ticket.',
  deleted: 'Ticket supprimé.',
  summary: 'Bilan de vos tickets réglés.',
  notFound: 'Ticket introuvable.',
  notYours: 'Choisissez une de vos analyses réussies.',
  marketNotOffered: 'Cette analyse ne couvre pas ce marché.',
  unknownPick: 'Ce choix n’existe pas pour ce marché.',
  badOdds: 'La cote doit être un nombre décimal entre 1,01 et 1000, avec au plus deux décimales.',
  sameFixture:
    'Ce match figure déjà sur le ticket avec une autre analyse : ajoutez ce marché depuis la même analyse.',
  noMatrix:
    'Cette analyse est antérieure aux tickets : un seul pari sur ce match peut en être tiré. Refaites une analyse pour en combiner plusieurs.',
  duplicateLeg: 'Ce choix figure déjà sur le ticket.',
  cannotBothWin: 'Ces deux choix sur le même match ne peuvent pas gagner ensemble.',
  /** The track-record page's money section (its chart and table). */
  trackRecordMoney: {
    title: 'En argent : une mise fixe de 1 000 XAF par analyse',
    intro:
      'Chaque analyse réglée dont le choix avait des cotes d’avant-match enregistrées compte comme un pari de 1 000 XAF à la cote moyenne du marché (celle de Pinnacle à défaut), à côté du même pari sur le favori des bookmakers. Toutes les analyses réglées depuis la première comptent ; l’intervalle est à 95 %.',
    chart: 'Rendement par mois, avec son intervalle à 95 %',
    legendOurs: 'Nos analyses',
    legendFavourite: 'Le favori des bookmakers',
    table: 'Rendement par marché',
    market: 'Marché',
    bets: 'Paris',
    staked: 'Misé (XAF)',
    returned: 'Revenu (XAF)',
    roi: 'Rendement (intervalle)',
    favouriteRoi: 'Favori : rendement (intervalle)',
    empty: 'Aucune analyse réglée avec des cotes enregistrées pour l’instant.',
    markets: {
      '1x2': '1X2',
      double_chance: 'Double chance',
      btts: 'Les deux équipes marquent',
      over_under_2_5: 'Plus/moins de 2,5 buts',
      exact_score: 'Score exact',
    },
  },
  verdict: {
    value: (expected: number, stake: number) =>
      `En moyenne, ce ticket rapporte ${xaf(expected)} pour ${xaf(stake)} misés : la cote est meilleure que la probabilité.`,
    fair: (expected: number, stake: number) =>
      `En moyenne, ce ticket rapporte ${xaf(expected)} pour ${xaf(stake)} misés : la cote est juste, sans avantage.`,
    negative: (expected: number, stake: number) =>
      `En moyenne, ce ticket rapporte ${xaf(expected)} pour ${xaf(stake)} misés : la cote est trop basse pour la probabilité.`,
  },
};

/** A share in French: `54 %`. */
function percent(value: number): string {
  return `${Math.round(value * 100)} %`;
}

/** A figure with one decimal in French: `1,4`. */
function decimal(value: number): string {
  return value.toFixed(1).replace('.', ',');
}

/** The French plural mark of a count (`but`, `buts`), as the analysis has always written it. */
function s(count: number): string {
  return count > 1 ? 's' : '';
}

/**
 * The analysis's words and the pick labels (src/engine/narration.ts tells the analysis from them,
 * in its own order). Figures come as numbers and are written here, the French way; the lists of
 * equivalent phrasings have as many entries in every language (the same fixture picks the same place).
 */
const analysisTexts = {
  picks: {
    win: (team: string) => `${team} gagne`,
    draw: 'Match nul',
    orDraw: (home: string) => `${home} ou match nul`,
    drawOr: (away: string) => `Match nul ou ${away}`,
    noDraw: (home: string, away: string) => `${home} ou ${away} (pas de match nul)`,
    bothScore: 'Les deux équipes marquent',
    notBothScore: 'Au moins une équipe ne marque pas',
    over: 'Plus de 2,5 buts',
    under: 'Moins de 2,5 buts',
    exactScore: (home: string, score: string, away: string) => `Score exact : ${home} ${score} ${away}`,
  },
  /** A side the client named not. */
  unnamedTeams: { home: 'Équipe à domicile', away: 'Équipe à l’extérieur' },
  listSeparator: ' ; ',
  and: ' et ',
  openings: {
    homeClear: [
      (home: string, away: string) => `${home} part nettement favori à domicile face à ${away}.`,
      (home: string, away: string) =>
        `Sur le papier, ${home} domine ce match face à ${away}, avec l’appui de son public.`,
      (home: string, away: string) => `${home} reçoit ${away} avec un net avantage selon le modèle.`,
    ],
    awayFavourite: [
      (home: string, away: string) => `${away} est favori malgré le déplacement chez ${home}.`,
      (home: string, away: string) => `Même à l’extérieur, ${away} a les faveurs du modèle face à ${home}.`,
    ],
    even: [
      (home: string, away: string) =>
        `Rencontre très ouverte entre ${home} et ${away} : aucune équipe ne se détache vraiment.`,
      (home: string, away: string) => `${home} et ${away} se tiennent de près selon le modèle.`,
      (home: string, away: string) => `Match équilibré en vue entre ${home} et ${away}.`,
    ],
    homeEdge: [
      (home: string, away: string) => `${home} a un léger avantage sur ${away}, aidé par le terrain.`,
      (home: string, away: string) => `Avantage modéré pour ${home}, qui reçoit ${away}.`,
    ],
    awayEdge: [
      (home: string, away: string) =>
        `${away} part avec un léger avantage sur ${home}, malgré le déplacement.`,
      (home: string, away: string) => `Le modèle penche légèrement pour ${away}, en visite chez ${home}.`,
    ],
  },
  traits: {
    attackStrong: 'une attaque parmi les plus productives du championnat',
    attackWeak: 'une attaque qui peine à marquer',
    defenceStrong: 'une défense très solide',
    defenceWeak: 'une défense qui concède beaucoup',
  },
  strengths: (team: string, traits: string) => `${team} présente ${traits}`,
  /** `dead` has nothing left to play for, `live` has. */
  stakesOneSided: (dead: string, live: string) =>
    `Fin de saison : ${dead} n’a plus grand-chose à jouer au classement, contrairement à ${live} ; le modèle en tient compte.`,
  stakesNone: 'Fin de saison sans réel enjeu au classement pour les deux équipes.',
  expectedGoals: [
    (home: number, homeTeam: string, away: number, awayTeam: string) =>
      `Buts attendus : ${decimal(home)} pour ${homeTeam}, ${decimal(away)} pour ${awayTeam}.`,
    (home: number, homeTeam: string, away: number, awayTeam: string) =>
      `Le modèle attend environ ${decimal(home)} but${home >= 1.95 ? 's' : ''} pour ${homeTeam} et ${decimal(away)} pour ${awayTeam}.`,
  ],
  /** A form's letters as the engine records them, the French ones (V victoire, N nul, D défaite). */
  formLetters: (letters: string) => `${letters}`,
  wins: (count: number) => `${count} victoire${s(count)}`,
  draws: (count: number) => `${count} nul${s(count)}`,
  losses: (count: number) => `${count} défaite${s(count)}`,
  scored: (goals: number) => `${goals} but${s(goals)} marqué${s(goals)}`,
  conceded: (goals: number) => `${goals} encaissé${s(goals)}`,
  form: (team: string, letters: string, results: string, scored: string, conceded: string) =>
    `${team} (${letters} : ${results}, ${scored}, ${conceded})`,
  lastFive: (forms: string) => `Sur les cinq derniers matchs : ${forms}.`,
  certainty: {
    strong: 'une tendance forte, sans être une certitude',
    clear: 'une tendance nette',
    moderate: 'une tendance modérée',
    fragile: 'une indication fragile : l’incertitude reste grande',
  },
  markets: {
    bttsYes: (chance: number, sure: string) =>
      `Les deux attaques devraient trouver le chemin des filets : probabilité estimée à ${percent(chance)} que chaque équipe marque, ${sure}.`,
    bttsNo: (chance: number, sure: string) =>
      `Au moins une des deux équipes pourrait rester muette : ${percent(chance)} selon le modèle, ${sure}.`,
    over: (total: number, chance: number, sure: string) =>
      `Le total attendu (${decimal(total)} buts) plaide pour un match à trois buts ou plus : ${percent(chance)}, ${sure}.`,
    under: (total: number, chance: number, sure: string) =>
      `Avec ${decimal(total)} buts attendus au total, un match à deux buts ou moins est le scénario le plus probable : ${percent(chance)}, ${sure}.`,
    scoreChance: (score: string, chance: number) => `${score} (${percent(chance)})`,
    exactScore: (score: string, chance: number, others: string) =>
      `Le score le plus probable est ${score} (${percent(chance)}), suivi de ${others}. Un score exact reste très incertain : même le plus probable se produit rarement.`,
    doubleChance: (label: string, chance: number, sure: string) =>
      `Double chance « ${label} » : probabilité estimée à ${percent(chance)}, ${sure}.`,
    ourReading: (label: string, chance: number, sure: string) =>
      `Notre lecture : ${label} (${percent(chance)}), ${sure}.`,
    likeliest: (label: string, chance: number, sure: string) =>
      `Issue la plus probable : ${label} (${percent(chance)}), ${sure}.`,
    /** The reading's pick when it is a draw. */
    aDraw: 'un match nul',
    overLean: 'plus de 2,5 buts',
    underLean: 'moins de 2,5 buts',
    bothScoreLean: 'les deux équipes marquent',
    oneBlankLean: 'au moins une équipe reste muette',
    /** `top`: the likeliest score, or '' when none is listed. */
    fullAnalysis: (
      home: number,
      draw: number,
      away: number,
      goals: string,
      goalsChance: number,
      btts: string,
      bttsChance: number,
      top: string,
    ) =>
      `Répartition 1X2 : ${percent(home)} / ${percent(draw)} / ${percent(away)}. Côté buts, le modèle penche pour ${goals} (${percent(goalsChance)}) et ${btts} (${percent(bttsChance)})${top ? ` ; score le plus probable : ${top}` : ''}.`,
  },
  months: [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
  longDate: (date: number, month: string, year: number) => `${date} ${month} ${year}`,
  caveats: {
    thisLeague: 'ce championnat',
    staleSince: (league: string, day: string) =>
      `Attention : nos derniers résultats de ${league} datent du ${day}. Les équipes ont pu beaucoup changer depuis ; cette estimation repose sur des données anciennes et reste à prendre avec une grande prudence.`,
    staleNothing: (league: string) =>
      `Attention : nous n’avons aucun résultat récent de ${league}. Cette estimation repose sur des repères généraux et reste à prendre avec une grande prudence.`,
    uncovered:
      'Ce championnat n’est pas couvert par nos données : l’estimation repose sur des repères généraux (avantage du terrain compris) et reste à prendre avec prudence.',
    bothUnknown:
      'Aucune des deux équipes ne figure dans nos données : le modèle leur prête le niveau type d’un promu, d’où une fiabilité limitée.',
    oneUnknown: (team: string) =>
      `${team} ne figure pas dans nos données : le modèle lui prête le niveau type d’un promu, d’où une fiabilité limitée.`,
    lowData: 'Peu de matchs récents sont disponibles pour ces équipes : l’estimation reste prudente.',
    historyShort: (league: string) =>
      `Nos données de ${league} sont encore minces (moins d’une demi-saison de résultats sur deux ans) : l’estimation s’appuie surtout sur des repères généraux et reste à prendre avec prudence.`,
    resultsOnly: (league: string) =>
      `Pour ${league}, nous n’avons que des résultats, sans les cotes des bookmakers qui affinent nos estimations ailleurs : celle-ci est moins précise.`,
    cupsOnly: (team: string) =>
      `${team} joue dans un championnat que nos données ne couvrent pas : son niveau est estimé à partir de ses seuls résultats en coupes d’Europe, en partant d’un niveau prudent, d’où une estimation moins fiable.`,
    /** A cup's second leg: the first leg's score, who must win by how much, what the model does with it. */
    firstLeg: (home: string, away: string, homeGoals: number, awayGoals: number, shifted: boolean) => {
      const lead = homeGoals - awayGoals;
      const behind = lead > 0 ? away : home;
      const margin = Math.abs(lead);
      const situation =
        lead === 0
          ? 'Les deux équipes sont à égalité : le vainqueur de ce match retour se qualifie, un nul mène à la prolongation.'
          : `${behind} doit l’emporter par ${margin + 1} buts d’écart pour se qualifier ; une victoire par ${margin === 1 ? 'un seul but' : `${margin} buts`} d’écart mène à la prolongation.`;
      const model = shifted
        ? 'Le modèle tient compte de ce score : il a fait évoluer le niveau des deux équipes et prévoit un match plus ouvert quand une équipe doit remonter un retard.'
        : 'Le modèle tient compte de ce score dans le niveau des deux équipes, sans modifier ses probabilités selon l’écart à combler : les chiffres portent sur ce match seul, pas sur la qualification.';
      return `Match aller : ${away} ${awayGoals}-${homeGoals} ${home}. ${situation} ${model}`;
    },
  },
  closings: [
    'Le football garde sa part d’imprévu : ces chiffres sont des probabilités, pas des promesses.',
    'À lire comme une estimation : un match peut toujours déjouer les probabilités.',
    'Ces probabilités éclairent le match sans en écrire l’issue.',
  ],
};

/**
 * The public pages' texts (src/modules/track-record/page.ts, src/modules/account/page.ts). They are
 * HTML written by us (a few hold `<strong>`), placed in the page as they are; their line breaks are
 * the French pages' own, so the French pages keep their bytes. The functions' arguments are filled
 * in the browser by the page's script (a number, a date, another text).
 */
const pages = {
  /** The FR / EN switch every page carries. */
  languageSwitch: 'Langue',
  trackRecord: {
    title: 'Bilan de nos pronostics',
    intro: `Chaque analyse vendue est réglée sur le score final, sans exception ni sélection.
Les analyses annulées (match non joué ou introuvable) sont comptées à part et
n’entrent pas dans le taux de réussite.`,
    loading: 'Chargement…',
    overall: 'Ensemble',
    byType: 'Par type de pronostic',
    byLeague: 'Par championnat',
    calibration: 'Calibration : nos analyses et les bookmakers',
    calibrationLegend: 'Légende du graphique de calibration',
    legendOurs: 'Nos analyses, par confiance annoncée (taille : nombre d’analyses)',
    legendMarket: 'Le favori des bookmakers sur les mêmes matchs, par probabilité',
    legendDiagonal: 'Calibration parfaite',
    calibrationNote: `Une analyse annoncée à 60 % doit être gagnée six fois sur dix : plus les points
    suivent la diagonale, plus les pourcentages annoncés sont fiables. Les bookmakers sont lus sur les
    matchs où nos analyses ont été réglées : leur favori (cote 1X2 de clôture, marge retirée) et la
    part de ces favoris qui a gagné. Leurs cotes ne sont publiées qu’agrégées, par intervalles d’au
    moins 30 matchs.`,
    monthly: 'Évolution mensuelle',
    howWeSettle: 'Comment nous réglons',
    settlement: [
      `<strong>Quoi :</strong> chaque analyse livrée est réglée, sans exception ni tri, sur le score
  final du match (temps réglementaire, arrêts de jeu compris, sans prolongation ni tirs au but).`,
      `<strong>D’où viennent les résultats :</strong> des fichiers de résultats de football-data.co.uk,
  téléchargés chaque jour pour les championnats suivis et enregistrés tels quels.`,
      `<strong>Quel match :</strong> une analyse créée depuis un match au programme est réglée sur ce
  match, même reporté, à sa nouvelle date ; les autres sur le match des deux équipes nommées (dans
  cet ordre, domicile puis extérieur, et dans le championnat indiqué) joué le jour annoncé ou dans
  les 7 jours suivants.`,
      `<strong>Quand :</strong> le règlement passe toutes les 10 minutes et aussitôt après le
  téléchargement quotidien des résultats : une analyse est réglée au plus tard le jour qui suit la
  publication du score.`,
      `<strong>Ce qui est gagné :</strong> 1X2 et analyse complète : le résultat annoncé (victoire à
  domicile, nul, victoire à l’extérieur) ; double chance : l’un des deux résultats couverts ; les deux
  équipes marquent : oui si chacune marque au moins un but, non sinon ; plus/moins de 2,5 buts : 3 buts
  ou plus, ou 2 au plus (pas de remboursement possible) ; score exact : le score annoncé, ou « autre »
  quand le score final n’est aucun des scores évalués.`,
      `<strong>Annulée :</strong> un match introuvable ou non joué 7 jours après la date annoncée
  (30 jours après son coup d’envoi pour un match au programme reporté) est annulé : compté à part,
  jamais dans le taux de réussite.`,
      `<strong>Une fois pour toutes :</strong> un règlement n’est jamais refait ni retiré, et les
  analyses que leur acheteur a supprimées restent comptées.`,
    ],
    // The page's script: how it writes numbers and dates, and its labels.
    numberLocale: 'fr-FR',
    percentSuffix: ' %',
    windows: {
      last_30_days: '30 jours',
      last_90_days: '90 jours',
      last_365_days: '365 jours',
      all_time: 'Depuis le début',
    },
    types: {
      '1x2': '1X2',
      'double-chance': 'Double chance',
      btts: 'Les deux équipes marquent',
      'over-under-2-5': 'Plus/moins de 2,5 buts',
      'exact-score': 'Score exact',
      'full-analysis': 'Analyse complète',
    },
    columns: {
      period: 'Période',
      month: 'Mois',
      settled: 'Réglées',
      won: 'Gagnées',
      lost: 'Perdues',
      void: 'Annulées',
      hitRate: 'Réussite',
      meanConfidence: 'Confiance moyenne',
      rps: 'RPS',
      baselineRps: 'RPS référence',
      brier: 'Brier',
      baselineBrier: 'Brier référence',
      favouriteProbability: 'Probabilité du favori',
      matches: 'Matchs',
      meanProbability: 'Probabilité moyenne',
      favouriteHitRate: 'Réussite du favori',
    },
    calibrationChart:
      'Calibration : probabilité annoncée et réussite observée, nos analyses et le favori des bookmakers',
    statedProbability: 'Probabilité annoncée',
    observedHitRate: 'Réussite observée',
    marketTable: 'Calibration des bookmakers, par intervalle',
    monthlyChart: 'Évolution mensuelle : analyses réglées et taux de réussite',
    settledAxis: 'Analyses réglées',
    hitRateAxis: 'Taux de réussite',
    monthTitle: (month: string, settled: string, hitRate: string) =>
      `${month} : ${settled} réglées, réussite ${hitRate}`,
    monthlyTable: 'Évolution mensuelle, en chiffres',
    legendBars: 'Analyses réglées (échelle de gauche)',
    legendRate: 'Taux de réussite (échelle de droite)',
    overallTable: 'Ensemble des analyses, par période',
    byPeriod: (name: string) => `${name}, par période`,
    unknownMatch: 'Match non retrouvé',
    emptyOverall:
      'Aucune analyse n’est encore réglée. Les chiffres apparaîtront ici dès le premier match joué après une analyse vendue, une fois son résultat publié.',
    emptyByType:
      'Chaque type de pronostic (1X2, double chance, les deux équipes marquent, plus/moins de 2,5 buts, score exact, analyse complète) aura ici son propre bilan dès sa première analyse réglée.',
    emptyByLeague:
      'Chaque championnat aura ici son propre bilan dès qu’une analyse d’un de ses matchs sera réglée.',
    oursBin: (range: string, count: string, confidence: string, hitRate: string) =>
      `Nos analyses ${range} : ${count} analyses, confiance moyenne ${confidence}, réussite ${hitRate}`,
    marketBin: (range: string, count: string, probability: string, hitRate: string) =>
      `Favori des bookmakers ${range} : ${count} matchs, probabilité moyenne ${probability}, réussite ${hitRate}`,
    emptyCalibration: 'Nos points apparaîtront dès les premières analyses gagnées ou perdues.',
    emptyMarket: (minBin: string, matches: string) =>
      `Les bookmakers apparaîtront quand au moins ${minBin} matchs réglés auront des cotes enregistrées (${matches} pour l’instant).`,
    emptyMonthly: 'Chaque mois apparaîtra ici dès sa première analyse réglée.',
    baseline: (baseline: string) => `Référence naïve du RPS et du score de Brier : ${baseline}.`,
    updated: (date: string) => `Mis à jour le ${date}.`,
    unavailable: 'Le bilan est indisponible pour le moment.',
  },
  accountDelete: {
    title: 'Supprimer mon compte',
    intro: 'Vous pouvez supprimer votre compte à tout moment, depuis l’application ou depuis cette page.',
    fromApp: 'Depuis l’application',
    appSteps: [
      'Ouvrez l’application et connectez-vous.',
      'Allez dans <strong>Profil</strong>, puis <strong>Supprimer mon compte</strong>.',
      'Saisissez le code de confirmation reçu par SMS : le compte est supprimé aussitôt.',
    ],
    whatHappens: 'Ce qui est supprimé, ce qui est conservé',
    // What is kept, and for how long: docs/decisions/0100-deletion-page-retention.md.
    outcomes: [
      'Supprimés : votre numéro de téléphone (partout, journal d’audit compris, sauf dans les opérations financières ci-dessous), votre nom, votre pseudo, votre photo, vos demandes d’assistance et leurs pièces jointes, vos sessions (vous êtes déconnecté partout).',
      'Anonymisés : vos pronostics, gardés sans aucun lien avec vous pour le bilan public.',
      'Conservés 10 ans avec le numéro de téléphone qui a payé ou reçu l’argent : les paiements, les retraits, les versements et les mouvements du solde. C’est la durée de conservation des pièces comptables fixée par le droit comptable OHADA ; passé ce délai, le numéro en est effacé automatiquement.',
      'Votre numéro est libéré : une nouvelle inscription avec ce numéro crée un nouveau compte, vide.',
      'La suppression est refusée tant qu’un paiement ou un retrait est en cours. S’il vous reste un solde de parrainage, il vous est indiqué et vous devez confirmer y renoncer.',
    ],
    exportNote:
      'Avant de supprimer votre compte, vous pouvez télécharger vos données depuis l’application (Profil, puis Exporter mes données).',
    fromPage: 'Depuis cette page',
    country: 'Pays',
    countries: {
      CM: 'Cameroun (+237)',
      CI: 'Côte d’Ivoire (+225)',
      SN: 'Sénégal (+221)',
      GA: 'Gabon (+241)',
      FR: 'France (+33)',
    },
    phone: 'Numéro de téléphone',
    sendSignInCode: 'Recevoir un code de connexion',
    signInCode: 'Code de connexion reçu par SMS',
    verifyCode: 'Vérifier le code',
    deletionCode: 'Code de confirmation de la suppression (second SMS)',
    forfeit: 'Je renonce définitivement à mon solde restant.',
    deleteForGood: 'Supprimer définitivement mon compte',
    // The page's script.
    genericError: 'Une erreur est survenue. Réessayez.',
    retryIn: (text: string, seconds: string) => `${text} (réessayez dans ${seconds} s)`,
    unreachable: 'Le service est injoignable. Réessayez dans un instant.',
    signInCodeSent: (phone: string) => `Un code de connexion a été envoyé au ${phone}.`,
    start: 'Saisissez le numéro de téléphone de votre compte pour commencer.',
  },
};

/**
 * Responsible play (issue 54): the refusals' messages (each says what to do and where in the app),
 * the answers of its routes, the 18+ mark every page carries and the /responsible-play page. No text
 * here or anywhere promises a win (test/play/promises.test.ts).
 */
const playTexts = {
  ageRequired:
    'Indiquez votre date de naissance avant d’acheter un pack : dans l’application, Profil, puis « Jeu responsable ».',
  underAge: (minimum: number) =>
    `Les achats sont réservés aux personnes d’au moins ${minimum} ans. Vos analyses déjà achetées restent consultables.`,
  limitReached:
    'Cet achat dépasserait une limite de dépenses que vous avez fixée : vous pourrez acheter à nouveau à la date indiquée (data.resets_at). Vos limites se gèrent dans Profil, puis « Jeu responsable ».',
  selfExcluded:
    'Vous avez choisi une pause de jeu : achats, nouvelles analyses et tickets sont bloqués jusqu’à sa fin (data.until). Votre historique, l’export et la suppression de votre compte restent disponibles.',
  birthDateInvalid: 'La date de naissance doit être une date passée (AAAA-MM-JJ), il y a au plus 120 ans.',
  birthDateLocked:
    'Votre date de naissance est déjà enregistrée : pour la corriger, écrivez au support depuis l’application.',
  birthDateChanged: 'Date de naissance modifiée.',
  limitsNothing: 'Indiquez au moins une limite : daily, weekly ou monthly.',
  limits: 'Vos limites de dépenses.',
  limitsSaved:
    'Limites enregistrées : une baisse s’applique tout de suite, une hausse ou une suppression dans 72 heures.',
  exclusionCodeSent: 'Un code confirmant votre pause de jeu vous a été envoyé.',
  excluded: 'Pause de jeu confirmée : elle ne peut pas être raccourcie.',
  adultsOnly: '18+',
  link: 'Jeu responsable',
  page: {
    title: 'Jeu responsable',
    intro:
      'Nos analyses sont des estimations de probabilités, jamais des certitudes : aucun gain n’est garanti, et un pari peut toujours être perdu.',
    adults: 'Réservé aux personnes majeures',
    adultsText:
      'Les paris et les achats sont interdits aux mineurs. Votre date de naissance vous est demandée avant votre premier achat.',
    risks: 'Les risques',
    riskItems: [
      'Ne misez que ce que vous pouvez vous permettre de perdre.',
      'Ne cherchez pas à « vous refaire » après une perte.',
      'Le jeu n’est pas une source de revenus.',
      'Si le jeu vous cause du souci, à vous ou à vos proches, faites une pause.',
    ],
    tools: 'Ce que nous vous proposons',
    toolItems: [
      '<strong>Limites de dépenses</strong> par jour, par semaine et par mois : une baisse s’applique tout de suite, une hausse ou une suppression après 72 heures.',
      '<strong>Pause de jeu</strong> de 1 jour à 5 ans, confirmée par un code : plus d’achat, plus de nouvelle analyse, plus de ticket jusqu’à sa fin. Elle ne peut pas être raccourcie, même en supprimant votre compte.',
      'Dans l’application : Profil, puis « Jeu responsable ».',
    ],
    help: 'Trouver de l’aide',
    helpItems: [
      'Parlez-en à un médecin ou à un centre de santé près de chez vous.',
      'Gamblers Anonymous (groupes d’entraide, en ligne) : <strong>gamblersanonymous.org</strong>',
      'GamCare (aide en ligne, en anglais) : <strong>gamcare.org.uk</strong>',
      'Notre support, depuis l’application (Profil, puis Support), peut activer une pause avec vous.',
    ],
  },
};

export const fr = {
  messages,
  adminTexts,
  validationMessages,
  otpTexts,
  accountTexts,
  paymentTexts,
  withdrawalTexts,
  pushTexts,
  analysisTexts,
  pages,
  playTexts,
  slipTexts,
};

/** The shape every language's catalogue has: the French one's, key for key. */
export type Catalogue = typeof fr;
