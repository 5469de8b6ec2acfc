/**
 * Every word the signing page shows, per language. The interface follows the
 * recipient's `supportedLanguage` (Swagger `signer.supportedLanguage`);
 * anything other than French falls back to English.
 */
export interface PageText {
  lang: 'en' | 'fr';
  title: string;
  /** The page heading with the envelope's subject (French puts a space before the colon). */
  heading: (subject: string) => string;
  intro: (sender: string) => string;
  documentsHeading: string;
  page: (n: number | string, total: number | string) => string;
  signHere: string;
  signedTab: string;
  /** An initial-here box on the document, before and after the signer initials it. */
  initialHere: string;
  initialledTab: string;
  errorUninitialledTabs: string;
  adoptHeading: string;
  adoptLabel: string;
  adoptHelp: string;
  preview: string;
  tabsHelp: (count: number) => string;
  placeHelp: string;
  pageRegionLabel: (doc: string, n: number | string) => string;
  placedLabel: (n: number | string) => string;
  removePlacement: string;
  finish: string;
  finishLater: string;
  declineHeading: string;
  declineLabel: string;
  declineButton: string;
  errorNoName: string;
  errorUnsignedTabs: string;
  errorNoPlacement: string;
  errorNoReason: string;
  /** The heading above the fields the signer fills or sees (issue 19). */
  fieldsHeading: string;
  /** Shown in a field the service fills when the signer finishes (date signed, name). */
  filledOnSigning: string;
  errorRequiredFields: (labels: string) => string;
  errorInvalidFields: (labels: string) => string;
  loading: string;
  downloadFallback: string;
  expiredTitle: string;
  expiredBody: string;
  usedBody: string;
  unknownTitle: string;
  unknownBody: string;
  sessionTitle: string;
  sessionBody: string;
  notYourTurnTitle: string;
  notYourTurnBody: string;
  closedTitle: string;
  closedBody: string;
  forbiddenTitle: string;
  forbiddenBody: string;
  redirecting: string;
  continueLink: string;
  doneTitle: string;
  doneBody: string;
  declinedTitle: string;
  declinedBody: string;
  /** The access-code step (a recipient with `accessCode`). */
  accessCodeTitle: string;
  accessCodeHelp: string;
  accessCodeLabel: string;
  accessCodeButton: string;
  errorNoAccessCode: string;
  errorWrongAccessCode: (left: number) => string;
  lockedTitle: string;
  lockedBody: string;
  /** In-person signing: the host hands the device to the signer. */
  inPersonNotice: (host: string, signer: string) => string;
  /** A witness signs for someone. */
  witnessNotice: (witnessed: string) => string;
  /** The page of a recipient who does not sign: a certified delivery, an editor, agent or intermediary, a carbon copy. */
  viewTitle: string;
  viewIntro: (sender: string) => string;
  actHelp: string;
  actButton: string;
  copyHelp: string;
  /** The buttons an approve, decline or view tab draws on the document when it gives no buttonText. */
  approveTab: string;
  declineTab: string;
  viewTab: string;
  /** Help for a signer who finishes on an approve tab (or declines) and places no signature. */
  buttonsHelp: string;
  /** Help for a signer with a decline tab and no approve or sign-here tab: Finish, no signature placed. */
  noSignatureHelp: string;
  /** A signer attachment tab: the sandbox takes no uploads. */
  attachmentTab: string;
  attachmentUnsupported: string;
  errorUnopenedViews: (labels: string) => string;
}

const en: PageText = {
  lang: 'en',
  title: 'Review and sign',
  heading: (subject) => `Review and sign: ${subject}`,
  intro: (sender) => `${sender} asks you to review and sign the documents below.`,
  documentsHeading: 'Documents',
  page: (n, total) => `Page ${n} of ${total}`,
  signHere: 'Sign here',
  signedTab: 'Signed',
  initialHere: 'Initial here',
  initialledTab: 'Initialled',
  errorUninitialledTabs: 'Select every "Initial here" field before finishing.',
  adoptHeading: 'Adopt your signature',
  adoptLabel: 'Your signature (type your full name)',
  adoptHelp: 'Typing your name here and finishing has the same effect as signing by hand.',
  preview: 'Preview',
  tabsHelp: (count) =>
    count === 1
      ? 'Select the "Sign here" field, then Finish.'
      : `Select each of the ${count} "Sign here" fields, then Finish.`,
  placeHelp:
    'No signature fields were set for you: click on a page (or focus it and press Enter) where your signature should go. Arrow keys move a placed signature; Delete removes it.',
  pageRegionLabel: (doc, n) => `${doc}, page ${n}: press Enter to place your signature here`,
  placedLabel: (n) => `Your signature ${n}: arrow keys move it, Delete removes it`,
  removePlacement: 'Remove',
  finish: 'Finish',
  finishLater: 'Finish later',
  declineHeading: 'Decline to sign',
  declineLabel: 'Reason for declining',
  declineButton: 'Decline',
  errorNoName: 'Type your name to adopt a signature.',
  errorUnsignedTabs: 'Select every "Sign here" field before finishing.',
  errorNoPlacement: 'Place your signature on a page before finishing.',
  errorNoReason: 'Give a reason for declining.',
  fieldsHeading: 'Fields',
  filledOnSigning: 'Filled in when you finish',
  errorRequiredFields: (labels) => `Fill in the required fields: ${labels}.`,
  errorInvalidFields: (labels) => `These fields do not hold a valid value: ${labels}.`,
  loading: 'Loading the document…',
  downloadFallback: 'Open the document',
  expiredTitle: 'This signing link has expired',
  expiredBody: 'Signing links work for a few minutes only. You are being sent back so that a new one can be requested.',
  usedBody: 'This signing link has already been used. You are being sent back so that a new one can be requested.',
  unknownTitle: 'Unknown signing link',
  unknownBody: 'This address does not open any signing session. Ask the sender for a new link.',
  sessionTitle: 'Your signing session has ended',
  sessionBody:
    'The session timed out or was already finished. You are being sent back so that a new link can be requested.',
  notYourTurnTitle: 'Not your turn yet',
  notYourTurnBody: 'Other people must sign before you. You will be asked when it is your turn.',
  closedTitle: 'Nothing to sign',
  closedBody: 'This envelope is no longer waiting for your signature.',
  forbiddenTitle: 'Session not available in this browser',
  forbiddenBody: 'This signing session was opened in another browser. Open your signing link again.',
  redirecting: 'Redirecting…',
  continueLink: 'Continue',
  doneTitle: 'Thank you',
  doneBody: 'You have finished: the sender has been notified. You can close this window.',
  declinedTitle: 'You declined to sign',
  declinedBody: 'The sender has been notified and will see your reason. You can close this window.',
  accessCodeTitle: 'Enter the access code',
  accessCodeHelp: 'The sender protected these documents with an access code. The sender gives it to you separately.',
  accessCodeLabel: 'Access code',
  accessCodeButton: 'Validate',
  errorNoAccessCode: 'Enter the access code.',
  errorWrongAccessCode: (left) =>
    `This access code is not right. ${left === 1 ? '1 attempt is' : `${left} attempts are`} left before you are locked out.`,
  lockedTitle: 'Locked: too many wrong access codes',
  lockedBody:
    'The access code was entered wrongly too many times, so these documents stay closed. Ask the sender to correct the envelope and send it to you again.',
  inPersonNotice: (host, signer) =>
    `In-person signing hosted by ${host}: ${host}, hand this device to ${signer}, who signs below.`,
  witnessNotice: (witnessed) => `You sign as the witness of ${witnessed}'s signature.`,
  viewTitle: 'Review the documents',
  viewIntro: (sender) => `${sender} sends you the documents below.`,
  actHelp: 'Open and read each document, then select Finish: nothing has to be signed.',
  actButton: 'Finish',
  copyHelp: 'You receive a copy for your information: there is nothing for you to do.',
  approveTab: 'Approve',
  declineTab: 'Decline',
  viewTab: 'View',
  buttonsHelp: 'Fill in your fields, then select Approve (or Finish): you place no signature.',
  noSignatureHelp: 'Fill in your fields, then select Finish: you place no signature.',
  attachmentTab: 'Attachment',
  attachmentUnsupported: 'Attaching a file is not supported by the signrun sandbox yet: you can finish without it.',
  errorUnopenedViews: (labels) => `Open these documents before finishing: ${labels}.`,
};

const fr: PageText = {
  lang: 'fr',
  title: 'Relire et signer',
  heading: (subject) => `Relire et signer : ${subject}`,
  intro: (sender) => `${sender} vous demande de relire et de signer les documents ci-dessous.`,
  documentsHeading: 'Documents',
  page: (n, total) => `Page ${n} sur ${total}`,
  signHere: 'Signer ici',
  signedTab: 'Signé',
  initialHere: 'Parapher ici',
  initialledTab: 'Paraphé',
  errorUninitialledTabs: 'Sélectionnez tous les champs « Parapher ici » avant de terminer.',
  adoptHeading: 'Adopter votre signature',
  adoptLabel: 'Votre signature (saisissez vos nom et prénom)',
  adoptHelp: 'Saisir votre nom ici puis terminer a la même valeur qu’une signature manuscrite.',
  preview: 'Aperçu',
  tabsHelp: (count) =>
    count === 1
      ? 'Sélectionnez le champ « Signer ici », puis Terminer.'
      : `Sélectionnez chacun des ${count} champs « Signer ici », puis Terminer.`,
  placeHelp:
    'Aucun champ de signature n’a été prévu pour vous : cliquez sur une page (ou placez-y le focus et appuyez sur Entrée) à l’endroit où votre signature doit figurer. Les flèches déplacent une signature placée ; Suppr la retire.',
  pageRegionLabel: (doc, n) => `${doc}, page ${n} : appuyez sur Entrée pour y placer votre signature`,
  placedLabel: (n) => `Votre signature ${n} : les flèches la déplacent, Suppr la retire`,
  removePlacement: 'Retirer',
  finish: 'Terminer',
  finishLater: 'Terminer plus tard',
  declineHeading: 'Refuser de signer',
  declineLabel: 'Motif du refus',
  declineButton: 'Refuser',
  errorNoName: 'Saisissez votre nom pour adopter une signature.',
  errorUnsignedTabs: 'Sélectionnez tous les champs « Signer ici » avant de terminer.',
  errorNoPlacement: 'Placez votre signature sur une page avant de terminer.',
  errorNoReason: 'Indiquez le motif du refus.',
  fieldsHeading: 'Champs',
  filledOnSigning: 'Rempli à la fin de la signature',
  errorRequiredFields: (labels) => `Remplissez les champs obligatoires : ${labels}.`,
  errorInvalidFields: (labels) => `Ces champs n’ont pas une valeur valide : ${labels}.`,
  loading: 'Chargement du document…',
  downloadFallback: 'Ouvrir le document',
  expiredTitle: 'Ce lien de signature a expiré',
  expiredBody:
    'Les liens de signature ne sont valables que quelques minutes. Vous allez être redirigé pour en demander un nouveau.',
  usedBody: 'Ce lien de signature a déjà été utilisé. Vous allez être redirigé pour en demander un nouveau.',
  unknownTitle: 'Lien de signature inconnu',
  unknownBody: 'Cette adresse n’ouvre aucune session de signature. Demandez un nouveau lien à l’expéditeur.',
  sessionTitle: 'Votre session de signature est terminée',
  sessionBody: 'La session a expiré ou est déjà terminée. Vous allez être redirigé pour demander un nouveau lien.',
  notYourTurnTitle: 'Ce n’est pas encore votre tour',
  notYourTurnBody: 'D’autres personnes doivent signer avant vous. Vous serez sollicité le moment venu.',
  closedTitle: 'Rien à signer',
  closedBody: 'Cette enveloppe n’attend plus votre signature.',
  forbiddenTitle: 'Session indisponible dans ce navigateur',
  forbiddenBody: 'Cette session de signature a été ouverte dans un autre navigateur. Rouvrez votre lien de signature.',
  redirecting: 'Redirection…',
  continueLink: 'Continuer',
  doneTitle: 'Merci',
  doneBody: 'C’est terminé. Vous pouvez fermer cette fenêtre ; l’expéditeur en est informé.',
  declinedTitle: 'Vous avez refusé de signer',
  declinedBody: 'L’expéditeur est informé de votre motif. Vous pouvez fermer cette fenêtre.',
  accessCodeTitle: 'Saisissez le code d’accès',
  accessCodeHelp: 'L’expéditeur a protégé ces documents par un code d’accès, qu’il vous communique séparément.',
  accessCodeLabel: 'Code d’accès',
  accessCodeButton: 'Valider',
  errorNoAccessCode: 'Saisissez le code d’accès.',
  errorWrongAccessCode: (left) =>
    `Ce code d’accès est incorrect. ${left === 1 ? 'Il reste 1 essai' : `Il reste ${left} essais`} avant le blocage.`,
  lockedTitle: 'Bloqué : trop de codes d’accès erronés',
  lockedBody:
    'Le code d’accès a été saisi trop de fois de manière erronée : ces documents restent fermés. Demandez à l’expéditeur de corriger l’enveloppe et de vous la renvoyer.',
  inPersonNotice: (host, signer) =>
    `Signature en personne accueillie par ${host} : ${host}, remettez cet appareil à ${signer}, qui signe ci-dessous.`,
  witnessNotice: (witnessed) => `Vous signez en tant que témoin de la signature de ${witnessed}.`,
  viewTitle: 'Consulter les documents',
  viewIntro: (sender) => `${sender} vous envoie les documents ci-dessous.`,
  actHelp: 'Ouvrez et lisez chaque document, puis sélectionnez Terminer : rien n’est à signer.',
  actButton: 'Terminer',
  copyHelp: 'Vous recevez une copie pour information : vous n’avez rien à faire.',
  approveTab: 'Approuver',
  declineTab: 'Refuser',
  viewTab: 'Afficher',
  buttonsHelp: 'Remplissez vos champs, puis sélectionnez Approuver (ou Terminer) : vous ne placez pas de signature.',
  noSignatureHelp: 'Remplissez vos champs, puis sélectionnez Terminer : vous ne placez pas de signature.',
  attachmentTab: 'Pièce jointe',
  attachmentUnsupported:
    'Le bac à sable signrun ne permet pas encore de joindre un fichier : vous pouvez terminer sans.',
  errorUnopenedViews: (labels) => `Ouvrez ces documents avant de terminer : ${labels}.`,
};

/** The texts for a recipient's `supportedLanguage` (`fr`, `fr-CA`, `FR` → French; anything else → English). */
export function pageText(supportedLanguage: string | null | undefined): PageText {
  return supportedLanguage?.toLowerCase().split(/[-_]/)[0] === 'fr' ? fr : en;
}

/** For pages shown before the recipient is known: the browser's first preference, English by default. */
export function pageTextFromAcceptLanguage(header: string | undefined): PageText {
  const first = header?.split(',')[0]?.trim();
  return pageText(first);
}
