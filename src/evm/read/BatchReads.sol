// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// Never deployed. `readAtBlock` puts this code at an unused address for one `eth_call` (a
/// state override) to make many reads at one block in one call. The code is in
/// `batchReadsCode.ts` (compiled for byzantium, so that it runs at any block since);
/// `batchReads.test.ts` compiles this file and compares.
contract BatchReads {
    /// Static calls in order, each with at most `gasEach` gas, while at least `reserve` gas
    /// would remain after one: `ok` and `out` may be shorter than `to` (ask again for the rest).
    function reads(address[] calldata to, bytes[] calldata data, uint256 gasEach, uint256 reserve)
        external
        view
        returns (bool[] memory ok, bytes[] memory out)
    {
        uint256 n = to.length;
        ok = new bool[](n);
        out = new bytes[](n);
        uint256 done;
        for (; done < n; done++) {
            if (gasleft() < gasEach + gasEach / 63 + reserve) break;
            (ok[done], out[done]) = to[done].staticcall{gas: gasEach}(data[done]);
        }
        assembly {
            mstore(ok, done)
            mstore(out, done)
        }
    }

    /// The native balance of each address: `readAtBlock` asks it as one of `reads`' calls (a
    /// static call of this code to itself), beside the contract calls of the same block.
    function balances(address[] calldata who) external view returns (uint256[] memory out) {
        out = new uint256[](who.length);
        for (uint256 i = 0; i < who.length; i++) out[i] = who[i].balance;
    }
}
