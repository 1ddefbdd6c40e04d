// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @dev File-level so the curve can use it in constant expressions.
uint256 constant PROJECT_TOKEN_MAX_SUPPLY = 1e27;

/// @title A project's token, supplied only through its bonding curve.
/// @notice Founders grant the platform payout wallet an allowance with `approve` or, gaslessly,
///         with an EIP-2612 `permit` signature. A holder without ETH moves tokens with a
///         `RelayedTransfer` signature, on the same EIP-712 domain as `permit`, that names the one
///         account allowed to send it (the platform's sponsor): EIP-3009's
///         `transferWithAuthorization` with the relayer bound, as `BondingCurve.sellFor` binds it.
contract ProjectToken is ERC20, ERC20Permit {
    /// @notice 10^9 whole tokens.
    uint256 public constant MAX_SUPPLY = PROJECT_TOKEN_MAX_SUPPLY;

    /// @notice The bonding curve that deployed this token; the only account that mints or burns,
    ///         so the supply always matches what the curve's reserve backs.
    address public immutable curve;

    /// @dev Not EIP-3009's `TransferWithAuthorization`: its fields differ (the relayer), so it has a
    ///      name of its own rather than one that wallets and tools take for the standard's.
    bytes32 public constant RELAYED_TRANSFER_TYPEHASH = keccak256(
        "RelayedTransfer(address from,address to,uint256 value,address relayer,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );

    mapping(address authorizer => mapping(bytes32 nonce => bool used)) private _authorizationStates;

    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);

    error OnlyCurve();
    error MaxSupplyExceeded(uint256 supplyAfter);
    error NotRelayer(address relayer);
    error AuthorizationNotYetValid(uint256 validAfter);
    error AuthorizationExpired(uint256 validBefore);
    error AuthorizationAlreadyUsed(bytes32 nonce);
    error InvalidSignature();

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

    /// @notice Whether authorizer has used nonce (random, as in EIP-3009: no order among signatures).
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationStates[authorizer][nonce];
    }

    /// @notice Moves value from `from` to `to` on from's EIP-712 `RelayedTransfer` signature, sent
    ///         by the relayer it names and by nobody else (`NotRelayer`), valid strictly after
    ///         validAfter and strictly before validBefore (seconds). Whoever else sees the signature
    ///         cannot send it: the relayer decides when it is spent, so it can dry-run, record and
    ///         replace its own transaction without a third party racing it to the nonce.
    function relayedTransfer(
        address from,
        address to,
        uint256 value,
        address relayer,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external {
        if (msg.sender != relayer) revert NotRelayer(relayer);
        if (block.timestamp <= validAfter) revert AuthorizationNotYetValid(validAfter);
        if (block.timestamp >= validBefore) revert AuthorizationExpired(validBefore);
        if (_authorizationStates[from][nonce]) revert AuthorizationAlreadyUsed(nonce);
        bytes32 digest = _relayedTransferDigest(from, to, value, validAfter, validBefore, nonce);
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecoverCalldata(digest, signature);
        if (err != ECDSA.RecoverError.NoError || signer != from || from == address(0)) revert InvalidSignature();
        _authorizationStates[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        _transfer(from, to, value);
    }

    /// @dev The EIP-712 digest of a `RelayedTransfer` whose relayer is msg.sender (checked by the
    ///      caller); apart to keep the stack shallow.
    function _relayedTransferDigest(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce
    ) private view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(RELAYED_TRANSFER_TYPEHASH, from, to, value, msg.sender, validAfter, validBefore, nonce)
            )
        );
    }
}
