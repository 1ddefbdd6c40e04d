// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {PROJECT_TOKEN_MAX_SUPPLY, ProjectToken} from "./ProjectToken.sol";

uint256 constant CURVE_MAX_A = 1e20;
uint256 constant CURVE_MAX_B = 1e11;

/// @title Linear bonding curve that mints and burns one project's token against ETH.
/// @notice Price per whole token at supply x (base units): p(x) = a + b * x / 1e18 wei.
///         Reserve needed to back supply x: R(x) = floor((2 * a * x * 1e18 + b * x^2) / (2 * 1e36)),
///         i.e. a * x / 1e18 + b * x^2 / (2 * 1e36) with a single floor, the integral of p.
///         1% of every buy (of msg.value) and of every sell (of the gross proceeds) accrues to the
///         treasury; the ETH stays in this contract until `withdrawFees`.
/// @dev Invariant: reserve() >= R(token.totalSupply()). A buy from x1 to x2 keeps R(x2) - R(x1)
///      of the net ETH plus the dust (net - (R(x2) - R(x1)) >= 0, since x2 is the largest supply
///      with R(x2) <= R(x1) + net), and a sell from x1 to x2 removes exactly R(x1) - R(x2) (paid out
///      plus its fee moved to feesAccrued). Starting from an empty reserve at supply 0 (R(0) = 0)
///      the changes telescope, so reserve() == R(supply) + accumulated dust, and selling back the
///      whole supply always succeeds. Forced ETH (selfdestruct) only adds to the reserve.
///      `sellFor` removes the same R(x1) - R(x2) as `sell`: the relayer's gas refund is paid out of
///      the seller's proceeds, never out of the reserve.
contract BondingCurve is ReentrancyGuard, EIP712 {
    uint256 public constant FEE_BPS = 100;
    uint256 private constant BPS = 10_000;
    uint256 private constant WAD = 1e18;

    /// @dev Bounds that keep every intermediate of `_supplyFor` below 2^256 for any supply up to
    ///      MAX_SUPPLY + 1: the discriminant is at most (a * 1e18 + b * (MAX_SUPPLY + 1))^2 and
    ///      1e20 * 1e18 + 1e11 * 1e27 < 2^128. They still allow a start price of 100 ETH per token
    ///      and a price of 100 ETH per token added at the full 10^9 supply.
    uint256 public constant MAX_A = CURVE_MAX_A;
    uint256 public constant MAX_B = CURVE_MAX_B;

    ProjectToken public immutable token;
    address public immutable treasury;
    uint256 public immutable a;
    uint256 public immutable b;

    bytes32 public constant SELL_TYPEHASH = keccak256(
        "Sell(address seller,uint256 tokensIn,uint256 minEthOut,uint256 maxGasFee,address relayer,bytes32 nonce,uint256 deadline)"
    );

    /// @notice Gas of a `sellFor` transaction that `gasleft()` cannot see, added to the measured
    ///         part: the intrinsic 21000, the calldata (356 bytes with a 65-byte signature, ~3200 gas),
    ///         the dispatch and the reentrancy guard before the measurement starts, and after it the
    ///         reads of `_relayGas`, the two events, the two ETH transfers and the guard's reset, net
    ///         of the guard's EIP-3529 refund. Calibrated on anvil 1.7.1 (Osaka gas schedule) at a
    ///         2 gwei base fee: the refund came within 0.2% of gasUsed * effectiveGasPrice in every
    ///         case measured (gasUsed 96,693 to 126,615; the figures are in contracts/README.md).
    uint256 public constant RELAY_GAS_OVERHEAD = 50_100;
    /// @dev EIP-3529 refund for a storage slot set from non-zero to zero, paid to the relayer at the
    ///      end of the transaction: the burn clears the seller's balance and, on the last sale, the supply.
    uint256 private constant CLEARED_SLOT_REFUND = 4800;
    /// @dev Paying ETH to an empty account (EIP-161: no code, nonce and balance 0) creates it.
    uint256 private constant NEW_ACCOUNT_GAS = 25_000;

    /// @notice Fees owed to the treasury, held in this contract's balance apart from the reserve.
    uint256 public feesAccrued;

    /// @notice Sell authorizations consumed, by seller and random nonce (as in EIP-3009), so a holder
    ///         can sign several sales at once without ordering them.
    mapping(address seller => mapping(bytes32 nonce => bool used)) public sellAuthorizationUsed;

    event Bought(address indexed buyer, uint256 ethIn, uint256 fee, uint256 tokensOut, uint256 supplyAfter);
    event Sold(address indexed seller, uint256 tokensIn, uint256 ethOut, uint256 fee, uint256 supplyAfter);
    event FeesWithdrawn(address indexed treasury, uint256 amount);
    event GasRefunded(address indexed relayer, address indexed seller, uint256 gasFee, bytes32 nonce);

    error InvalidParameters();
    error ZeroAmount();
    error ExceedsMaxSupply();
    error ExceedsSupply(uint256 tokensIn, uint256 supply);
    error SlippageTokensOut(uint256 tokensOut, uint256 minTokensOut);
    error SlippageEthOut(uint256 ethOut, uint256 minEthOut);
    error AuthorizationExpired(uint256 deadline);
    error AuthorizationAlreadyUsed(bytes32 nonce);
    error InvalidSignature();
    error ProceedsBelowGas(uint256 proceeds, uint256 gasFee);

    constructor(string memory name_, string memory symbol_, address treasury_, uint256 a_, uint256 b_)
        EIP712("BondingCurve", "1")
    {
        if (treasury_ == address(0) || (a_ == 0 && b_ == 0) || a_ > MAX_A || b_ > MAX_B) {
            revert InvalidParameters();
        }
        treasury = treasury_;
        a = a_;
        b = b_;
        // Deployed with CREATE from this contract's first nonce, so the token address follows
        // from the curve address alone.
        token = new ProjectToken(name_, symbol_);
    }

    /// @notice Pays msg.value into the curve; 1% is the fee, the rest mints tokens to the caller.
    ///         Wei that cannot buy a whole base unit stays in the reserve.
    function buy(uint256 minTokensOut) external payable nonReentrant returns (uint256 tokensOut) {
        // R is floored, so a supply sitting inside one wei's worth of tokens could otherwise be
        // topped up to that wei's boundary for free.
        if (msg.value == 0) revert ZeroAmount();
        uint256 fee;
        (tokensOut, fee) = quoteBuy(msg.value);
        if (tokensOut == 0) revert ZeroAmount();
        if (tokensOut < minTokensOut) revert SlippageTokensOut(tokensOut, minTokensOut);

        feesAccrued += fee;
        token.mint(msg.sender, tokensOut);
        emit Bought(msg.sender, msg.value, fee, tokensOut, token.totalSupply());
    }

    /// @notice Burns tokensIn of the caller and pays the gross curve value minus the 1% fee.
    function sell(uint256 tokensIn, uint256 minEthOut) external nonReentrant returns (uint256 ethOut) {
        if (tokensIn == 0) revert ZeroAmount();
        uint256 fee;
        (ethOut, fee) = quoteSell(tokensIn);
        if (ethOut < minEthOut) revert SlippageEthOut(ethOut, minEthOut);

        token.burn(msg.sender, tokensIn);
        feesAccrued += fee;
        emit Sold(msg.sender, tokensIn, ethOut, fee, token.totalSupply());
        Address.sendValue(payable(msg.sender), ethOut);
    }

    /// @notice Sells tokensIn of seller on the seller's EIP-712 `Sell` signature, sent by the relayer
    ///         named in it (msg.sender), which pays the transaction's gas and gets it back out of the
    ///         proceeds: gasFee = min(maxGasFee, gas used * tx.gasprice). The seller needs no ETH.
    /// @return ethOut What the seller receives: the proceeds after the curve fee, minus gasFee.
    /// @return gasFee What the relayer receives.
    function sellFor(
        address seller,
        uint256 tokensIn,
        uint256 minEthOut,
        uint256 maxGasFee,
        bytes32 nonce,
        uint256 deadline,
        bytes calldata signature
    ) external nonReentrant returns (uint256 ethOut, uint256 gasFee) {
        uint256 gasStart = gasleft();
        if (block.timestamp > deadline) revert AuthorizationExpired(deadline);
        if (sellAuthorizationUsed[seller][nonce]) revert AuthorizationAlreadyUsed(nonce);
        _checkSigner(_sellDigest(seller, tokensIn, minEthOut, maxGasFee, nonce, deadline), seller, signature);
        sellAuthorizationUsed[seller][nonce] = true;
        (ethOut, gasFee) = _sellFor(gasStart, seller, tokensIn, minEthOut, maxGasFee, nonce);
    }

    /// @notice Sends every accrued fee to the treasury. Anyone may call it: the recipient is fixed,
    ///         and a retry after a successful withdrawal simply moves nothing.
    function withdrawFees() external nonReentrant returns (uint256 amount) {
        amount = feesAccrued;
        feesAccrued = 0;
        emit FeesWithdrawn(treasury, amount);
        if (amount > 0) Address.sendValue(payable(treasury), amount);
    }

    /// @return tokensOut Base units a buy paying ethIn (fee included) would mint now.
    /// @return fee The part of ethIn that would accrue to the treasury.
    function quoteBuy(uint256 ethIn) public view returns (uint256 tokensOut, uint256 fee) {
        fee = (ethIn * FEE_BPS) / BPS;
        uint256 supply = token.totalSupply();
        uint256 target = reserveFor(supply) + (ethIn - fee);
        // Reject before solving: past this point the supply would exceed MAX_SUPPLY, and the
        // bounds on a and b only guarantee overflow-free arithmetic up to MAX_SUPPLY + 1.
        if (target >= reserveFor(PROJECT_TOKEN_MAX_SUPPLY + 1)) revert ExceedsMaxSupply();
        tokensOut = _supplyFor(target) - supply;
    }

    /// @return ethOut Wei a sale of tokensIn would pay now, fee deducted.
    /// @return fee The part of the gross proceeds that would accrue to the treasury.
    function quoteSell(uint256 tokensIn) public view returns (uint256 ethOut, uint256 fee) {
        uint256 supply = token.totalSupply();
        if (tokensIn > supply) revert ExceedsSupply(tokensIn, supply);
        uint256 gross = reserveFor(supply) - reserveFor(supply - tokensIn);
        fee = (gross * FEE_BPS) / BPS;
        ethOut = gross - fee;
    }

    /// @notice ETH backing the supply: the balance minus the fees owed to the treasury.
    function reserve() external view returns (uint256) {
        return address(this).balance - feesAccrued;
    }

    /// @notice R(x): the reserve that backs a supply of x base units.
    function reserveFor(uint256 x) public view returns (uint256) {
        return (2 * a * x * WAD + b * x * x) / (2 * WAD * WAD);
    }

    /// @dev The EIP-712 digest of a `Sell` authorization sent by msg.sender.
    function _sellDigest(
        address seller,
        uint256 tokensIn,
        uint256 minEthOut,
        uint256 maxGasFee,
        bytes32 nonce,
        uint256 deadline
    ) private view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(abi.encode(SELL_TYPEHASH, seller, tokensIn, minEthOut, maxGasFee, msg.sender, nonce, deadline))
        );
    }

    function _checkSigner(bytes32 digest, address seller, bytes calldata signature) private pure {
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecoverCalldata(digest, signature);
        if (err != ECDSA.RecoverError.NoError || signer != seller || seller == address(0)) revert InvalidSignature();
    }

    /// @dev The sale of `sellFor` once the authorization is checked and spent; apart to keep the stack shallow.
    function _sellFor(
        uint256 gasStart,
        address seller,
        uint256 tokensIn,
        uint256 minEthOut,
        uint256 maxGasFee,
        bytes32 nonce
    ) private returns (uint256 ethOut, uint256 gasFee) {
        if (tokensIn == 0) revert ZeroAmount();
        (uint256 proceeds, uint256 fee) = quoteSell(tokensIn);
        token.burn(seller, tokensIn);
        feesAccrued += fee;
        uint256 supplyAfter = token.totalSupply();

        gasFee = Math.min(maxGasFee, _relayGas(gasStart, seller, supplyAfter) * tx.gasprice);
        if (gasFee > proceeds) revert ProceedsBelowGas(proceeds, gasFee);
        ethOut = proceeds - gasFee;
        if (ethOut < minEthOut) revert SlippageEthOut(ethOut, minEthOut);

        emit Sold(seller, tokensIn, ethOut, fee, supplyAfter);
        emit GasRefunded(msg.sender, seller, gasFee, nonce);
        Address.sendValue(payable(seller), ethOut);
        if (gasFee > 0) Address.sendValue(payable(msg.sender), gasFee);
    }

    /// @dev Gas the relayer will have paid for this transaction: measured since gasStart, plus the
    ///      constant part gasleft() cannot see, plus what varies with the state: the refunds for the
    ///      slots the burn cleared and the creation of a seller account that holds no ETH yet. A
    ///      seller with no ETH but a non-zero nonce is not empty and pays NEW_ACCOUNT_GAS too much,
    ///      within the maxGasFee it signed.
    function _relayGas(uint256 gasStart, address seller, uint256 supplyAfter) private view returns (uint256 gas) {
        gas = gasStart - gasleft() + RELAY_GAS_OVERHEAD;
        if (supplyAfter == 0) gas -= CLEARED_SLOT_REFUND;
        if (token.balanceOf(seller) == 0) gas -= CLEARED_SLOT_REFUND;
        // Also warms the seller's account, so the transfer below costs the same every time.
        if (seller.balance == 0 && seller.code.length == 0) gas += NEW_ACCOUNT_GAS;
    }

    /// @dev Largest x with R(x) <= target. R(x) <= target iff 2*a*1e18*x + b*x^2 <= c with
    ///      c = 2e36 * (target + 1) - 1, so the answer is the floor of the quadratic's positive root
    ///      (sqrt(D) - a*1e18) / b, D = (a*1e18)^2 + b*c. Flooring the square root first gives the
    ///      same result, as a*1e18 and b are integers (floor((floor(y) - m) / n) == floor((y - m) / n)).
    ///      The upward step is a guard that keeps R(x) <= target < R(x + 1) evident locally should the
    ///      formula ever change; by the identity above it does not fire.
    function _supplyFor(uint256 target) private view returns (uint256 x) {
        uint256 c = 2 * WAD * WAD * (target + 1) - 1;
        if (b == 0) return c / (2 * a * WAD);
        uint256 aw = a * WAD;
        x = (Math.sqrt(aw * aw + b * c) - aw) / b;
        if (reserveFor(x + 1) <= target) x += 1;
    }
}
