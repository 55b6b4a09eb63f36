import GesturePadSettings
import Testing

/// How strong a given pairing secret must be (issue 40): at least `AccessToken.minimumBits` by
/// the estimate of `AccessToken.estimatedBits`, which counts the character classes a token uses.
@Suite struct AccessTokenStrengthTests {
    @Test func aMadeTokenIsExactlyStrongEnough() {
        var generator = SystemRandomNumberGenerator()
        let made = AccessToken.random(using: &generator)
        #expect(AccessToken.estimatedBits(made) == 128)
        #expect(AccessToken.problem(with: made) == nil)
    }

    @Test(arguments: [
        ("0123456789abcdef0123456789abcdef", true),  // 32 hex digits: 128 bits
        ("0123456789abcdef0123456789abcde", false),  // 31: 124
        ("Ab3-Cd4_Ef5.Gh6~Ij7Kl8", true),  // 22 of 66 symbols: 133
        ("Ab3Cd4Ef5Gh6Ij7Kl8Mn9", false),  // 21 of 62: 125
        ("t", false), ("pairing-browser-secret", false),
    ])
    func strength(token: String, enough: Bool) {
        #expect((AccessToken.problem(with: token) == nil) == enough, "\(token): \(AccessToken.estimatedBits(token)) bits")
    }

    @Test func theRefusalSaysWhatIsNeededAndNotTheToken() throws {
        let problem = try #require(AccessToken.problem(with: "weak-secret"))
        #expect(problem.contains("128 needed") && !problem.contains("weak-secret"))
    }
}
