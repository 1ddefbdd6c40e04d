// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/**
 * A Chainlink-style ETH/USD aggregator (AggregatorV3Interface) whose rounds a test sets. For tests
 * only: the service never deploys it (`npm start` shows no dollars without ETH_USD_FEED_ADDRESS).
 */
contract EthUsdAggregatorMock {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
    }

    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;
    uint80 public latestRound;
    address public immutable owner;
    mapping(uint80 => Round) private rounds;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    error NotOwner();
    error NoSuchRound(uint80 roundId);

    constructor(uint8 decimals_, string memory description_, int256 answer) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        _push(answer, block.timestamp);
    }

    /** A new round with this answer, updated now. */
    function setAnswer(int256 answer) external {
        _push(answer, block.timestamp);
    }

    /** A new round with this answer and this update time (a stale round, for tests of staleness). */
    function setRound(int256 answer, uint256 updatedAt) external {
        _push(answer, updatedAt);
    }

    function getRoundData(uint80 roundId)
        external
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory r = rounds[roundId];
        if (roundId == 0 || roundId > latestRound) revert NoSuchRound(roundId);
        return (roundId, r.answer, r.startedAt, r.updatedAt, roundId);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory r = rounds[latestRound];
        return (latestRound, r.answer, r.startedAt, r.updatedAt, latestRound);
    }

    function _push(int256 answer, uint256 updatedAt) private {
        if (msg.sender != owner) revert NotOwner();
        latestRound += 1;
        rounds[latestRound] = Round(answer, updatedAt, updatedAt);
        emit AnswerUpdated(answer, latestRound, updatedAt);
    }
}
