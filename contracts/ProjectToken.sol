// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @dev File-level so the curve can use it in constant expressions.
uint256 constant PROJECT_TOKEN_MAX_SUPPLY = 1e27;

/// @title A project's token, supplied only through its bonding curve.
/// @notice Founders grant the platform payout wallet an allowance with `approve` or, gaslessly,
///         with an EIP-2612 `permit` signature.
contract ProjectToken is ERC20, ERC20Permit {
    /// @notice 10^9 whole tokens.
    uint256 public constant MAX_SUPPLY = PROJECT_TOKEN_MAX_SUPPLY;

    /// @notice The bonding curve that deployed this token; the only account that mints or burns,
    ///         so the supply always matches what the curve's reserve backs.
    address public immutable curve;

    error OnlyCurve();
    error MaxSupplyExceeded(uint256 supplyAfter);

    modifier onlyCurve() {
        if (msg.sender != curve) revert OnlyCurve();
        _;
    }

    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) ERC20Permit(name_) {
        curve = msg.sender;
    }

    function mint(address to, uint256 amount) external onlyCurve {
        uint256 supplyAfter = totalSupply() + amount;
        if (supplyAfter > MAX_SUPPLY) revert MaxSupplyExceeded(supplyAfter);
        _mint(to, amount);
    }

    /// @dev No allowance: a holder selling to the curve has already authorised the burn by calling
    ///      `sell`, and the curve never burns on anyone else's behalf.
    function burn(address from, uint256 amount) external onlyCurve {
        _burn(from, amount);
    }
}
