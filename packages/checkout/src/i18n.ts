import type { Locale } from './types.js';

const en = {
  loading: 'Loading payment…',
  payTo: 'Payment to',
  amountDue: 'Amount due',
  receivedSoFar: 'Received {received} {asset}. {remaining} {asset} still to pay.',
  send: 'Send exactly',
  toAddress: 'To this Stellar address',
  preparing: 'Preparing your payment address…',
  preparingBody: 'It appears here in a few seconds; this page updates by itself.',
  asset: 'Asset',
  issuer: 'Issuer',
  copy: 'Copy',
  copied: 'Copied',
  copyAmount: 'Copy amount',
  copyAddress: 'Copy address',
  scan: 'Scan with a Stellar wallet',
  openWallet: 'Open in wallet app',
  expiresIn: 'Expires in {t}',
  statusLabel: 'Payment status',
  step_awaiting: 'Awaiting payment',
  step_received: 'Payment received',
  step_confirming: 'Confirming',
  step_done: 'Done',
  status_now: 'Status: {step}',
  payWith: 'Pay with',
  priceValid: 'Price valid for {t}',
  requoting: 'Refreshing prices…',
  quoteRefreshed: 'That price expired, so we fetched a new one. Choose again.',
  accepting: 'Updating…',
  continueOther: 'Continue on another device',
  scanToContinue: 'Scan this code with your phone to continue there.',
  newCode: 'Get a new code',
  hide: 'Hide',
  walletPay: 'Pay with Freighter',
  walletBusy: 'Waiting for your wallet…',
  walletSent: 'Sent from your wallet. Waiting for the network…',
  walletMissing: 'Freighter is not installed in this browser.',
  done_title: 'Payment complete',
  done_body: 'Thank you. {name} has received your payment.',
  expired_title: 'This payment request has expired',
  expired_body: 'Nothing more can be paid here. If you already sent money, it will be returned.',
  failed_title: 'This payment could not be completed',
  failed_body: 'Any money received will be refunded.',
  refunded_title: 'This payment is being refunded',
  refunded_body: 'The money you sent is on its way back.',
  cancelled_title: 'This payment request was cancelled',
  cancelled_body: 'Ask the merchant for a new payment link.',
  error_title: 'Something went wrong',
  retry: 'Try again',
  handoff_used: 'This link has expired or was already used. Go back to the first device and continue on another device again.',
  testmode: 'Test mode',
};

export type Messages = typeof en;
export type MessageKey = keyof Messages;

const es: Messages = {
  loading: 'Cargando el pago…',
  payTo: 'Pago a',
  amountDue: 'Importe a pagar',
  receivedSoFar: 'Recibido {received} {asset}. Quedan {remaining} {asset} por pagar.',
  send: 'Envía exactamente',
  toAddress: 'A esta dirección de Stellar',
  preparing: 'Preparando tu dirección de pago…',
  preparingBody: 'Aparecerá aquí en unos segundos; esta página se actualiza sola.',
  asset: 'Activo',
  issuer: 'Emisor',
  copy: 'Copiar',
  copied: 'Copiado',
  copyAmount: 'Copiar importe',
  copyAddress: 'Copiar dirección',
  scan: 'Escanea con una billetera Stellar',
  openWallet: 'Abrir en la billetera',
  expiresIn: 'Caduca en {t}',
  statusLabel: 'Estado del pago',
  step_awaiting: 'Esperando el pago',
  step_received: 'Pago recibido',
  step_confirming: 'Confirmando',
  step_done: 'Completado',
  status_now: 'Estado: {step}',
  payWith: 'Pagar con',
  priceValid: 'Precio válido durante {t}',
  requoting: 'Actualizando precios…',
  quoteRefreshed: 'Ese precio caducó y obtuvimos uno nuevo. Elige de nuevo.',
  accepting: 'Actualizando…',
  continueOther: 'Continuar en otro dispositivo',
  scanToContinue: 'Escanea este código con tu teléfono para continuar allí.',
  newCode: 'Obtener un código nuevo',
  hide: 'Ocultar',
  walletPay: 'Pagar con Freighter',
  walletBusy: 'Esperando a tu billetera…',
  walletSent: 'Enviado desde tu billetera. Esperando a la red…',
  walletMissing: 'Freighter no está instalado en este navegador.',
  done_title: 'Pago completado',
  done_body: 'Gracias. {name} ha recibido tu pago.',
  expired_title: 'Esta solicitud de pago ha caducado',
  expired_body: 'Ya no se puede pagar aquí. Si ya enviaste dinero, se te devolverá.',
  failed_title: 'No se pudo completar el pago',
  failed_body: 'Se reembolsará cualquier importe recibido.',
  refunded_title: 'Este pago se está reembolsando',
  refunded_body: 'El dinero que enviaste está de vuelta en camino.',
  cancelled_title: 'Esta solicitud de pago fue cancelada',
  cancelled_body: 'Pide al comercio un nuevo enlace de pago.',
  error_title: 'Algo salió mal',
  retry: 'Reintentar',
  handoff_used: 'Este enlace caducó o ya se usó. Vuelve al primer dispositivo y pide un código nuevo.',
  testmode: 'Modo de prueba',
};

const CATALOG: Record<Locale, Messages> = { en, es };

export type Translate = (key: MessageKey, params?: Record<string, string>) => string;

export function pickLocale(requested?: string): Locale {
  const tag = (requested ?? (typeof navigator === 'undefined' ? 'en' : navigator.language) ?? 'en').toLowerCase();
  return tag.startsWith('es') ? 'es' : 'en';
}

export function translator(locale: Locale): Translate {
  const messages = CATALOG[locale];
  return (key, params = {}) => messages[key].replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? `{${name}}`);
}
