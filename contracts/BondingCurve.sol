// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
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
contract BondingCurve is ReentrancyGuard {
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

    /// @notice Fees owed to the treasury, held in this contract's balance apart from the reserve.
    uint256 public feesAccrued;

    event Bought(address indexed buyer, uint256 ethIn, uint256 fee, uint256 tokensOut, uint256 supplyAfter);
    event Sold(address indexed seller, uint256 tokensIn, uint256 ethOut, uint256 fee, uint256 supplyAfter);
    event FeesWithdrawn(address indexed treasury, uint256 amount);

    error InvalidParameters();
    error ZeroAmount();
    error ExceedsMaxSupply();
    error ExceedsSupply(uint256 tokensIn, uint256 supply);
    error SlippageTokensOut(uint256 tokensOut, uint256 minTokensOut);
    error SlippageEthOut(uint256 ethOut, uint256 minEthOut);

    constructor(string memory name_, string memory symbol_, address treasury_, uint256 a_, uint256 b_) {
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
