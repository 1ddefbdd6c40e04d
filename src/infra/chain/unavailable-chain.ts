import { AppError } from '../../lib/errors.ts';
import type { Chain } from './chain.ts';

/** The chain while none is configured: every call refuses with 503 chain_unavailable, honestly. */
const refuse = (): never => {
  throw new AppError('chain_unavailable', 'No blockchain is configured for this service.');
};

export const unavailableChain: Chain = {
  info: null,
  readFunds: async () => refuse(),
  payoutSigner: {
    address: '',
    routerAddress: '',
    key: '',
    payCall: () => refuse(),
    transferFromCall: () => refuse(),
    headBlock: async () => refuse(),
  },
  wallets: {
    ethBalance: async () => refuse(),
    tokenBalance: async () => refuse(),
    buy: async () => refuse(),
    sell: async () => refuse(),
    approvePayouts: async () => refuse(),
    sendToken: async () => refuse(),
    sendEth: async () => refuse(),
    readBalances: async () => refuse(),
    nonceOf: async () => refuse(),
    broadcast: async () => refuse(),
    receipt: async () => refuse(),
    known: async () => refuse(),
    headBlock: async () => refuse(),
    blockHash: async () => refuse(),
    quoteFees: async () => refuse(),
    dryRun: async () => refuse(),
    signTx: async () => refuse(),
  },
  sponsor: {
    address: null,
    balance: async () => refuse(),
    quoteSale: async () => refuse(),
    reauthorizeSale: async () => refuse(),
    sell: async () => refuse(),
    sendToken: async () => refuse(),
  },
  tokenFundsLogs: async () => refuse(),
  readCurve: async () => refuse(),
  readPriceFeed: async () => refuse(),
  deployProject: async () => refuse(),
  faucet: async () => refuse(),
  close: async () => {},
};
