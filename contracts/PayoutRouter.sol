// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title Pays a bounty reward and its platform fee in one call, so neither moves without the other.
/// @notice Founders approve this contract, not the payout key, as spender of their project token. Only
///         `payer` (the platform payout key) may call `pay`; the fee always goes to the fixed treasury.
/// @dev Never holds funds: both transfers go straight from the founder to their recipients, and
///      nothing here is payable. A failed transfer reverts the whole call, so a fee is never paid
///      without its reward.
contract PayoutRouter {
    using SafeERC20 for IERC20;

    /// @notice The only account allowed to move funds through this router.
    address public immutable payer;
    address public immutable treasury;

    event Paid(address indexed token, address indexed from, address indexed to, uint256 amount, uint256 fee);

    error NotPayer();
    error ZeroAddress();

    constructor(address payer_, address treasury_) {
        if (payer_ == address(0) || treasury_ == address(0)) revert ZeroAddress();
        payer = payer_;
        treasury = treasury_;
    }

    /// @notice Moves amount from `from` to `to` and fee from `from` to the treasury, both or neither.
    ///         `from` must have approved this contract for at least amount + fee.
    /// @dev SafeERC20 also covers tokens that signal failure by returning false instead of reverting.
    ///      A zero recipient is refused here: some tokens would burn the reward instead of reverting.
    function pay(IERC20 token, address from, address to, uint256 amount, uint256 fee) external {
        if (msg.sender != payer) revert NotPayer();
        if (to == address(0)) revert ZeroAddress();
        token.safeTransferFrom(from, to, amount);
        if (fee > 0) token.safeTransferFrom(from, treasury, fee);
        emit Paid(address(token), from, to, amount, fee);
    }
}
