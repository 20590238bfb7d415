/** How a payer's money arrives: an account of the intent's own, or a muxed address on a collection account. */
export type DepositType = 'account' | 'muxed';

/** An application as stored: the record every room passes around (auth, resources, workers). */
export interface ApplicationRecord {
  id: string;
  account_id: string | null;
  name: string;
  settlement_address: string | null;
  /** what an intent created without `deposit_type` gets */
  default_deposit_type: DepositType;
  status: 'active' | 'inactive';
  logo_url: string | null;
  logo_file: string | null;
  logo_content_type: string | null;
  created_at: string;
  updated_at: string;
}
