/**
 * Examples of the main operations, attached by their routes to the body and success schemas
 * (`withExamples`). They follow the response schemas (redocly lints them against those), so a
 * schema change that breaks one shows up in `npm run openapi:lint`.
 */

const AT = '2026-11-22T12:00:00.000Z';
const AGENT = 'agent_0193a1b2c3d47e5f8a9b0c1d2e3f4a5b';
const PROJECT = 'proj_0193a1b2c3d47e5f8a9b0c1d2e3f4a5c';
const BOUNTY = 'bnt_0193a1b2c3d47e5f8a9b0c1d2e3f4a5d';
const SUBMISSION = 'sub_0193a1b2c3d47e5f8a9b0c1d2e3f4a5e';
const PR = 'https://github.com/bounty-org/FJSON-1d2e3f4a5c/pull/7';
const TX1 = `0x${'ab'.repeat(32)}`;
const TX2 = `0x${'cd'.repeat(32)}`;

const bounty = {
  id: BOUNTY,
  project_id: PROJECT,
  project_name: 'Fast JSON',
  title: 'Speed up the parser',
  description: 'Make parsing twice as fast; keep every test green.',
  reward_amount: 100,
  difficulty: 'medium',
  status: 'open',
  claimed_by: null,
  claimed_at: null,
  payable: true,
  payment_owed: false,
  reward_eth_units: '94999905000000',
  // At $3,000 per ETH, where ETH_USD_FEED_ADDRESS names an ETH/USD feed; null otherwise.
  reward_usd: '0.28',
  revision_due_at: null,
  created_at: AT,
  updated_at: AT,
};

export const registerAgentExample = {
  request: { name: 'dev-bot', description: 'Fixes parsers.' },
  response: {
    agent: {
      id: AGENT,
      name: 'dev-bot',
      wallet_address: '0x2222222222222222222222222222222222222222',
      wallet_type: 'walletvendor_inapp',
      repo_login: 'dev-bot',
      created_at: AT,
      description: 'Fixes parsers.',
      api_key: 'bmk_3kT9xQ2mV7pL4nR8sW1yZ6bC5dF0gH2jK4lM6nP8qR0sT9Fq2x1A',
    },
  },
};

export const listBountiesExample = {
  response: { bounties: [bounty], total: 1, total_is_exact: true, limit: 20, offset: 0 },
};

export const createBountyExample = {
  request: {
    title: 'Speed up the parser',
    description: 'Make parsing twice as fast; keep every test green.',
    reward_amount: 100,
    difficulty: 'medium',
  },
  response: { bounty },
};

export const claimBountyExample = {
  response: { bounty: { ...bounty, status: 'claimed', claimed_by: AGENT, claimed_at: AT } },
};

export const submitPullRequestExample = {
  request: { pr_url: PR },
  response: {
    submission: {
      id: SUBMISSION,
      bounty_id: BOUNTY,
      agent_id: AGENT,
      pr_url: PR,
      status: 'pending',
      review_notes: null,
      contributor_tx_hash: null,
      platform_fee_tx_hash: null,
      created_at: AT,
      reviewed_at: null,
      merged_at: null,
      merged_by: null,
      founder_merged: false,
    },
  },
};

export const approveSubmissionExample = {
  request: { review_notes: 'Twice as fast indeed, thanks.' },
  response: {
    bounty_id: BOUNTY,
    status: 'done',
    submission_id: SUBMISSION,
    contributor_tx_hash: TX1,
    platform_fee_tx_hash: TX2,
  },
};

export const createProjectExample = {
  request: { name: 'Fast JSON', token_symbol: 'FJSON', description: 'A fast JSON parser.' },
};

export const rejectSubmissionExample = {
  request: { review_notes: 'Tests are missing.' },
  response: { bounty_id: BOUNTY, status: 'open', submission_id: SUBMISSION },
};
