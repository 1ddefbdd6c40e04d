// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {BondingCurve, CURVE_MAX_A, CURVE_MAX_B} from "./BondingCurve.sol";
import {PayoutRouter} from "./PayoutRouter.sol";

/// @title Deploys each activated project's bonding curve and token, one pair per salt.
/// @notice Every curve shares the factory's treasury and price parameters. The platform's default
///         deployment uses a = 1e12 wei and b = 1e3 wei: a token starts at 0.000001 ETH and its
///         price doubles by the time the full 10^9 supply is minted (reserve at full supply: 1500 ETH).
///         It also deploys the platform's payout router, which founders approve as the spender of
///         every project token, so one deployment names both the contracts and who may pay from them.
/// @dev Salts are chosen by the platform operator (one per project), so the curve address is known
///      before activation and a retried activation lands on the same pair.
contract ProjectFactory is Ownable {
    /// @notice 3: tokens move on a holder's signature only when sent by the relayer it names
    ///         (`relayedTransfer`). 2: curves have `sellFor` (a relayer sells on the holder's signature
    ///         and takes its gas from the proceeds) and tokens EIP-3009 `transferWithAuthorization`,
    ///         which anyone may send. Factories before 2 have no VERSION at all; the service reads it
    ///         to tell them apart.
    uint256 public constant VERSION = 3;
    address public immutable treasury;
    uint256 public immutable a;
    uint256 public immutable b;
    /// @notice The spender founders approve; its payer is the platform payout key given at deployment.
    PayoutRouter public immutable payoutRouter;

    mapping(bytes32 salt => address curve) public curveOf;

    event ProjectDeployed(bytes32 indexed salt, address indexed curve, address indexed token, string name, string symbol);

    /// @dev Parameters are validated by BondingCurve's constructor on the first deploy; the factory
    ///      checks them here too so a misconfigured factory fails at its own deployment. A zero payer_
    ///      is refused by the router's constructor.
    constructor(address treasury_, address payer_, uint256 a_, uint256 b_) Ownable(msg.sender) {
        if (treasury_ == address(0) || (a_ == 0 && b_ == 0) || a_ > CURVE_MAX_A || b_ > CURVE_MAX_B) {
            revert BondingCurve.InvalidParameters();
        }
        treasury = treasury_;
        a = a_;
        b = b_;
        payoutRouter = new PayoutRouter(payer_, treasury_);
    }

    /// @notice Deploys the pair for salt, or returns the existing one: idempotent, so an activation
    ///         retried after a lost receipt finds the pair its first attempt created. name and symbol
    ///         of a repeat call are ignored.
    function deploy(bytes32 salt, string calldata name, string calldata symbol)
        external
        onlyOwner
        returns (address curve, address token)
    {
        curve = curveOf[salt];
        if (curve != address(0)) return (curve, address(BondingCurve(curve).token()));

        BondingCurve created = new BondingCurve{salt: salt}(name, symbol, treasury, a, b);
        curve = address(created);
        token = address(created.token());
        curveOf[salt] = curve;
        emit ProjectDeployed(salt, curve, token, name, symbol);
    }

    /// @notice The address deploy(salt, name, symbol) creates (or created) its curve at.
    function predictCurve(bytes32 salt, string calldata name, string calldata symbol) external view returns (address) {
        bytes memory initCode =
            abi.encodePacked(type(BondingCurve).creationCode, abi.encode(name, symbol, treasury, a, b));
        return Create2.computeAddress(salt, keccak256(initCode));
    }
}
