import CCairo
import CGraphviz
import CLibPNG
import Foundation

/// The encoding of one bitmap into a PNG, shared by every thread that takes part: the pixels are
/// made once (a recording replayed, see CCairo), then the image data is deflated in stripes (see
/// `lifespec_png_deflate_stripe`) by whichever threads call `work()`, a stripe at a time. The
/// renderer starts a worker as soon as the bitmap is drawn, and the thread that holds Graphviz's
/// lock joins in once it has drawn everything else, instead of waiting for the encoding to finish.
///
/// The replay itself is one piece of work: cut into bands of rows, cairo draws a glyph that a cut
/// crosses through a mask of its own, and a few pixels come out a level or two off Graphviz's.
final class PNGEncoding: @unchecked Sendable {
    /// Where the pixels come from: a recording to replay, or the `lifespec_argb` device's buffer (a
    /// header of width and height, then the pixels). Either is freed with the encoding.
    enum Source {
        case recording(OpaquePointer, width: UInt32, height: UInt32)
        case buffer(UnsafeMutablePointer<CChar>, length: Int)
    }

    private let source: Source
    /// Guards everything below; waited on for the pixels and for the last stripe.
    private let condition = NSCondition()
    private var started = false
    private var failure: GraphvizError?
    // Made by the first thread that takes part, outside the lock.
    private var image: OpaquePointer?
    private var pixels: UnsafePointer<UInt32>?
    /// Set once the pixels are made; then the stripes can be taken.
    private var planned = false
    private var plan = lifespec_png_plan()
    private var stripeCount = 0
    private var nextStripe = 0
    private var finishedStripes = 0
    private var stripes: [lifespec_png_stripe] = []

    init(_ source: Source) { self.source = source }

    deinit {
        for stripe in stripes { free(stripe.data) }
        if let image { lifespec_image_destroy(image) }
        switch source {
        case .recording(let context, _, _): lifespec_recording_destroy(context)
        case .buffer(let buffer, _): gvFreeRenderData(buffer)
        }
    }

    /// Takes part in the encoding: makes the pixels if nobody has started to, then deflates stripes
    /// until none is left to take. Returns while other threads may still be deflating theirs.
    func work() {
        condition.lock()
        defer { condition.unlock() }
        if !started {
            started = true
            condition.unlock()
            let made = Result { () throws(GraphvizError) in
                let (image, pixels, width, height) = try makePixels()
                return (image, pixels, lifespec_png_plan_for(pixels, width, height))
            }
            condition.lock()
            switch made {
            case .success(let (image, pixels, plan)):
                self.image = image
                self.pixels = pixels
                self.plan = plan
                stripeCount = Int(lifespec_png_stripe_count(plan))
                stripes = Array(repeating: lifespec_png_stripe(), count: stripeCount)
                planned = true
            case .failure(let error):
                failure = error
            }
            condition.broadcast()
        }
        while failure == nil, !planned { condition.wait() }
        while failure == nil, nextStripe < stripeCount, let pixels {
            let index = nextStripe
            nextStripe += 1
            let plan = plan
            condition.unlock()
            var stripe = lifespec_png_stripe()
            let status = lifespec_png_deflate_stripe(pixels, plan, UInt32(index), &stripe)
            condition.lock()
            stripes[index] = stripe
            if status != 0, failure == nil {
                failure = GraphvizError(
                    stage: .render, message: "could not encode the \(plan.width) × \(plan.height) bitmap as PNG")
                condition.broadcast()
            }
            finishedStripes += 1
            if finishedStripes == stripeCount { condition.broadcast() }
        }
    }

    /// The PNG: helps with what is left, then waits for what other threads are still doing.
    func result() throws(GraphvizError) -> [UInt8] {
        work()
        condition.lock()
        defer { condition.unlock() }
        while failure == nil, finishedStripes < stripeCount { condition.wait() }
        // A stripe still being deflated elsewhere is stored, and freed with the rest, when it ends.
        if let failure { throw failure }
        var encoded: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = stripes.withUnsafeBufferPointer {
            lifespec_png_assemble(plan, $0.baseAddress, UInt32(stripeCount), &encoded, &length)
        }
        guard status == 0, let encoded else {
            throw GraphvizError(
                stage: .render, message: "could not encode the \(plan.width) × \(plan.height) bitmap as PNG")
        }
        defer { free(encoded) }
        return [UInt8](UnsafeBufferPointer(start: encoded, count: length))
    }

    /// The pixels: a recording replayed into an image of its own, or the device's buffer as it is.
    private func makePixels() throws(GraphvizError) -> (OpaquePointer?, UnsafePointer<UInt32>, UInt32, UInt32) {
        switch source {
        case .recording(let context, let width, let height):
            guard width > 0, height > 0 else { throw Self.emptyOrTooLarge(width, height) }
            var pixels: UnsafePointer<UInt32>?
            guard let image = lifespec_recording_replay(context, width, height, &pixels), let pixels else {
                throw GraphvizError(stage: .render, message: "cairo could not draw the \(width) × \(height) bitmap")
            }
            return (image, pixels, width, height)
        case .buffer(let buffer, let length):
            let raw = UnsafeRawPointer(buffer)
            let headerSize = 2 * MemoryLayout<UInt32>.size
            guard length >= headerSize else {
                throw GraphvizError(stage: .render, message: "the bitmap device returned no image")
            }
            let width = raw.loadUnaligned(as: UInt32.self)
            let height = raw.loadUnaligned(fromByteOffset: MemoryLayout<UInt32>.size, as: UInt32.self)
            guard width > 0, height > 0, length - headerSize == Int(width) * Int(height) * 4 else {
                throw Self.emptyOrTooLarge(width, height)
            }
            // The buffer is malloc'd with room to spare; its pixel words start 8 bytes in, so aligned.
            return (nil, raw.advanced(by: headerSize).assumingMemoryBound(to: UInt32.self), width, height)
        }
    }

    private static func emptyOrTooLarge(_ width: UInt32, _ height: UInt32) -> GraphvizError {
        GraphvizError(
            stage: .render,
            message: "the diagram is empty or too large to draw as a bitmap (\(width) × \(height) pixels)")
    }
}
